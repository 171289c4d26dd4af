/*
 * careless_provider.c: an ABI 2 provider with the mistakes authors make, for
 * `validate` and the scripted scene to catch.
 *
 *   (default)    pastes the input text into its view tree without escaping
 *                it: fine on "Hello, world!", broken JSON on a quote.
 *   STAYS_BUSY   shows a progress indicator for ever, as a provider whose
 *                main-queue work never comes back would.
 *   FINISHES_WITH_BUNDLE_PATH
 *                "Go" finishes with tp_host.bundle_path as the replacement.
 *   SLOPPY_TABLES
 *                answers get_capability with its scene factory for any id,
 *                and exports a helper besides its entry point.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "translation_provider.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tp_provider {
  const tp_host *host;
};

typedef struct careless_scene {
  tp_scene scene;
  const tp_context *context;
  const tp_host *host;
  char *json;
} careless_scene;

static tp_status render(const tp_scene *scene, tp_string *out) {
  careless_scene *s = (careless_scene *)scene;
  free(s->json);
#if defined(STAYS_BUSY)
  const char *tree = "{\"version\":1,\"root\":{\"type\":\"vstack\",\"children\":["
                     "{\"type\":\"progress\",\"label\":\"Translating\"},"
                     "{\"type\":\"button\",\"id\":\"go\",\"label\":{\"type\":\"text\",\"text\":\"Go\"}}]}}";
  s->json = strdup(tree);
#else
  const tp_string text = s->context->input_text;
  size_t size = text.length + 256;
  s->json = malloc(size);
  if (!s->json) return TP_STATUS_FAILED;
  /* The mistake: the text goes in as it is, quotes, backslashes, newlines and all. */
  int n = snprintf(s->json, size,
                   "{\"version\":1,\"root\":{\"type\":\"vstack\",\"children\":[{\"type\":\"text\",\"text\":\"%.*s\"},"
                   "{\"type\":\"button\",\"id\":\"go\",\"label\":{\"type\":\"text\",\"text\":\"Go\"}}]}}",
                   (int)text.length, text.data);
  (void)n;
#endif
  *out = (tp_string){s->json, strlen(s->json)};
  return TP_STATUS_OK;
}

static tp_status perform_action(const tp_scene *scene, const char *id) {
  careless_scene *s = (careless_scene *)scene;
  if (strcmp(id, "go") != 0) return TP_STATUS_NOT_FOUND;
#if defined(FINISHES_WITH_BUNDLE_PATH)
  tp_string path = {s->host->bundle_path, strlen(s->host->bundle_path)};
  s->context->finish(s->context, &path);
#else
  (void)s;
#endif
  return TP_STATUS_OK;
}

static tp_status set_text(const tp_scene *scene, const char *id, tp_string value) {
  (void)scene; (void)id; (void)value;
  return TP_STATUS_NOT_FOUND;
}

static void destroy_scene(const tp_scene *scene) {
  careless_scene *s = (careless_scene *)scene;
  free(s->json);
  free(s);
}

static const tp_scene *create_scene(tp_provider *self, const tp_context *context) {
  careless_scene *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->scene = (tp_scene){sizeof(tp_scene), s, render, perform_action, set_text, destroy_scene};
  s->context = context;
  s->host = self->host;
  return &s->scene;
}

static const tp_selected_text_scene_factory factory = {sizeof factory, create_scene};

static tp_provider *create(const tp_host *host) {
  tp_provider *self = calloc(1, sizeof *self);
  if (self) self->host = host;
  return self;
}

static void destroy(tp_provider *self) { free(self); }

#if defined(SLOPPY_TABLES)
__attribute__((visibility("default"))) int careless_helper(void) { return 1; }

static const void *get_capability(tp_provider *self, const char *id) {
  (void)self;
  return strcmp(id, TP_CAPABILITY_TRANSLATE) == 0 ? NULL : &factory;
}
#else
static const void *get_capability(tp_provider *self, const char *id) {
  (void)self;
  return strcmp(id, TP_CAPABILITY_SELECTED_TEXT_SCENE) == 0 ? &factory : NULL;
}
#endif

static const tp_entry entry = {sizeof(tp_entry), TP_ABI_VERSION_MAJOR, TP_ABI_VERSION_MINOR, create, destroy,
                               get_capability};

TP_EXPORT const tp_entry *translation_provider_entry_v2(void) { return &entry; }
