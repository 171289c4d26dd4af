/*
 * A provider that misbehaves in one way chosen at compile time (-D<MODE>), for
 * the loader, runner and end-to-end tests. Without a mode it is a minimal,
 * well-behaved provider: a scene with one "Go" button that finishes with the
 * input text in upper case, and a translate capability for en -> en-x-upper.
 */
#include "translation_provider.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef UNDEFINED_SYMBOL
extern int tp_fixture_symbol_that_does_not_exist(void);
int tp_fixture_use(void) { return tp_fixture_symbol_that_does_not_exist(); }
#endif

static const tp_context *current;
static char *upper;

static char *uppercase(const tp_string *text) {
  char *out = malloc(text->length + 1);
  for (size_t i = 0; i < text->length; i++) out[i] = (char)toupper((unsigned char)text->data[i]);
  out[text->length] = '\0';
  return out;
}

static tp_status render(const tp_scene *scene, tp_string *out) {
  (void)scene;
#if defined(CRASH_IN_RENDER)
  *(volatile int *)0 = 1;
#endif
#if defined(BAD_TREE)
  static const char json[] = "{\"version\":1,\"root\":{\"type\":\"marquee\"}}";
#else
  static const char json[] =
      "{\"version\":1,\"root\":{\"type\":\"button\",\"id\":\"go\",\"label\":{\"type\":\"text\",\"text\":\"Go\"}}}";
#endif
  *out = (tp_string){json, sizeof json - 1};
  return TP_STATUS_OK;
}

static tp_status perform_action(const tp_scene *scene, const char *id) {
  (void)scene;
  if (strcmp(id, "go") != 0) return TP_STATUS_NOT_FOUND;
#if defined(HANG_IN_ACTION)
  for (;;) pause();
#elif defined(EXIT_IN_ACTION)
  _exit(7);
#elif defined(ABORT_IN_ACTION)
  abort();
#endif
  free(upper);
  upper = uppercase(&current->input_text);
  tp_string translation = {upper, strlen(upper)};
  current->finish(current, &translation);
#if defined(FINISH_TWICE)
  tp_string other = {"SECOND", 6};
  current->finish(current, &other);
#endif
  return TP_STATUS_OK;
}

static tp_status set_text(const tp_scene *scene, const char *id, tp_string value) {
  (void)scene; (void)id; (void)value;
  return TP_STATUS_NOT_FOUND;
}

static void destroy(const tp_scene *scene) { (void)scene; current = NULL; }

static const tp_scene the_scene = {sizeof(tp_scene), NULL, render, perform_action, set_text, destroy};

static const tp_scene *create_scene(const tp_context *context) {
  current = context;
  return &the_scene;
}

static const tp_selected_text_scene_factory factory = {sizeof factory, create_scene};

static tp_status translate(const char *source, const char *target, const tp_string *texts, size_t count,
                           const tp_translation_sink *sink, tp_string *message) {
  (void)message;
  if (strcmp(source, "en") != 0 || strcmp(target, "en-x-upper") != 0) return TP_STATUS_UNSUPPORTED_LANGUAGE_PAIRING;
  for (size_t i = 0; i < count; i++) {
#if defined(SKIP_ANSWER)
    if (i == count - 1) break;
#endif
    char *out = uppercase(&texts[i]);
    sink->translation(sink, i, (tp_string){out, texts[i].length});
    free(out);
  }
  return TP_STATUS_OK;
}

static tp_status languages(const tp_language_sink *sink) {
  sink->pair(sink, "en", "en-x-upper", TP_AVAILABILITY_INSTALLED, (tp_string){NULL, 0});
  return TP_STATUS_OK;
}

static const tp_translator translator = {sizeof translator, translate, languages};

static bool init(const tp_host *host) {
  (void)host;
#if defined(INIT_FAILS)
  return false;
#else
  return true;
#endif
}

static void deinit(void) {}

static const void *get_capability(const char *id) {
  if (strcmp(id, TP_CAPABILITY_SELECTED_TEXT_SCENE) == 0) return &factory;
  if (strcmp(id, TP_CAPABILITY_TRANSLATE) == 0) return &translator;
  return NULL;
}

#ifndef ABI_MAJOR
#define ABI_MAJOR TP_ABI_VERSION_MAJOR
#endif
#ifndef ENTRY_SIZE
#define ENTRY_SIZE sizeof(tp_entry)
#endif

static const tp_entry entry = {ENTRY_SIZE, ABI_MAJOR, 7, init, deinit, get_capability};

#if !defined(NO_ENTRY)
TP_EXPORT const tp_entry *translation_provider_entry(void) {
#if defined(NULL_ENTRY)
  return NULL;
#else
  return &entry;
#endif
}
#endif
