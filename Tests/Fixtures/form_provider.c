/*
 * A well-behaved provider whose scene uses what the shipped providers do
 * not: an editable text field, a redraw the provider asks for on its own a
 * moment after a press, and expandSheet. "Done" finishes with the field's text.
 */
#include "translation_provider.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct form {
  tp_scene scene;
  const tp_context *context;
  pthread_mutex_t lock;
  char word[256];
  const char *status;
  char json[1024];
} form;

/* Copies `text` into `out` as a JSON string body (quotes and backslashes escaped, controls dropped). */
static void escape(const char *text, char *out, size_t size) {
  size_t used = 0;
  for (; *text && used + 3 < size; text++) {
    if (*text == '"' || *text == '\\') out[used++] = '\\';
    if ((unsigned char)*text >= 0x20) out[used++] = *text;
  }
  out[used] = '\0';
}

static tp_status render(const tp_scene *scene, tp_string *out) {
  form *state = scene->provider_data;
  char word[600];
  pthread_mutex_lock(&state->lock);
  escape(state->word, word, sizeof word);
  snprintf(state->json, sizeof state->json,
           "{\"version\":1,\"root\":{\"type\":\"vstack\",\"alignment\":\"leading\",\"children\":["
           "{\"type\":\"text\",\"text\":\"%s\"},"
           "{\"type\":\"textField\",\"id\":\"word\",\"placeholder\":\"A word\",\"text\":\"%s\"},"
           "{\"type\":\"hstack\",\"children\":["
           "{\"type\":\"button\",\"id\":\"later\",\"label\":{\"type\":\"text\",\"text\":\"Later\"}},"
           "{\"type\":\"button\",\"id\":\"expand\",\"label\":{\"type\":\"text\",\"text\":\"Expand\"}},"
           "{\"type\":\"button\",\"id\":\"done\",\"label\":{\"type\":\"text\",\"text\":\"Done\"}}]}]}}",
           state->status, word);
  pthread_mutex_unlock(&state->lock);
  *out = (tp_string){state->json, strlen(state->json)};
  return TP_STATUS_OK;
}

static void *update_later(void *argument) {
  form *state = argument;
  /* The delay is what is tested, not a wait: the redraw comes later, with no key pressed. */
  usleep(300 * 1000);
  pthread_mutex_lock(&state->lock);
  state->status = "Updated on its own";
  pthread_mutex_unlock(&state->lock);
  state->context->request_render(state->context);
  return NULL;
}

static tp_status perform_action(const tp_scene *scene, const char *id) {
  form *state = scene->provider_data;
  if (strcmp(id, "later") == 0) {
    pthread_t thread;
    if (pthread_create(&thread, NULL, update_later, state) != 0) return TP_STATUS_FAILED;
    pthread_detach(thread);
  } else if (strcmp(id, "expand") == 0) {
    state->context->expand_sheet(state->context);
  } else if (strcmp(id, "done") == 0) {
    pthread_mutex_lock(&state->lock);
    tp_string translation = {state->word, strlen(state->word)};
    pthread_mutex_unlock(&state->lock);
    state->context->finish(state->context, &translation);
  } else {
    return TP_STATUS_NOT_FOUND;
  }
  return TP_STATUS_OK;
}

static tp_status set_text(const tp_scene *scene, const char *id, tp_string value) {
  form *state = scene->provider_data;
  if (strcmp(id, "word") != 0 || value.length >= sizeof state->word) return TP_STATUS_NOT_FOUND;
  pthread_mutex_lock(&state->lock);
  memcpy(state->word, value.data, value.length);
  state->word[value.length] = '\0';
  pthread_mutex_unlock(&state->lock);
  return TP_STATUS_OK;
}

/* The thread of "Later" may still hold the scene for 300 ms: the scene is
 * left allocated (the process ends soon after). */
static void destroy(const tp_scene *scene) { (void)scene; }

static const tp_scene *create_scene(const tp_context *context) {
  form *state = calloc(1, sizeof *state);
  if (!state) return NULL;
  state->scene = (tp_scene){.struct_size = sizeof(tp_scene), .provider_data = state, .render = render,
                            .perform_action = perform_action, .set_text = set_text, .destroy = destroy};
  state->context = context;
  state->status = "Type a word";
  pthread_mutex_init(&state->lock, NULL);
  return &state->scene;
}

static const tp_selected_text_scene_factory factory = {.struct_size = sizeof factory, .create_scene = create_scene};

static bool init(const tp_host *host) { (void)host; return true; }
static void deinit(void) {}
static const void *get_capability(const char *id) {
  return strcmp(id, TP_CAPABILITY_SELECTED_TEXT_SCENE) == 0 ? &factory : NULL;
}

static const tp_entry entry = {.struct_size = sizeof entry, .abi_major = TP_ABI_VERSION_MAJOR,
                               .abi_minor = TP_ABI_VERSION_MINOR, .init = init, .deinit = deinit,
                               .get_capability = get_capability};

TP_EXPORT const tp_entry *translation_provider_entry(void) { return &entry; }
