/*
 * Rot13: a translation provider written in C against translation_provider.h.
 *
 * It shows a scene (the text, a "Translate" button, the result and a
 * "Replace with Translation" button) and implements the headless translate
 * capability for the pairs en -> en-x-rot13 and back, against ABI 2: its
 * instance (`self`) carries the host, so nothing lives in globals. Build it with:
 *
 *   cc -std=c11 -O2 -shared -fPIC -fvisibility=hidden -I<include> rot13.c -o libRot13.so
 */
#include "translation_provider.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The provider's instance: what create returns and every call receives. */
struct tp_provider {
  const tp_host *host; /* borrowed from create until destroy */
};

static void log_line(const tp_provider *self, tp_log_level level, const char *message) {
  if (self->host->log) self->host->log(self->host, level, (tp_string){message, strlen(message)});
}

/* ROT13 of `length` bytes of UTF-8 into a new buffer (bytes outside A-Z/a-z,
 * including every byte of a multi-byte character, are copied unchanged). */
static char *rot13(const char *text, size_t length) {
  char *out = malloc(length + 1);
  if (!out) return NULL;
  for (size_t i = 0; i < length; i++) {
    char c = text[i];
    if (c >= 'a' && c <= 'z') c = (char)('a' + (c - 'a' + 13) % 26);
    else if (c >= 'A' && c <= 'Z') c = (char)('A' + (c - 'A' + 13) % 26);
    out[i] = c;
  }
  out[length] = '\0';
  return out;
}

/* ---- A growing buffer, for building the view tree's JSON. ---- */

typedef struct buffer { char *data; size_t length, capacity; } buffer;

static void append(buffer *b, const char *bytes, size_t length) {
  if (b->length + length + 1 > b->capacity) {
    size_t capacity = (b->capacity ? b->capacity * 2 : 256) + length;
    char *grown = realloc(b->data, capacity);
    if (!grown) abort();
    b->data = grown;
    b->capacity = capacity;
  }
  memcpy(b->data + b->length, bytes, length);
  b->length += length;
  b->data[b->length] = '\0';
}

static void append_text(buffer *b, const char *text) { append(b, text, strlen(text)); }

/* Appends `text` as a JSON string literal. */
static void append_json_string(buffer *b, const char *text, size_t length) {
  append_text(b, "\"");
  for (size_t i = 0; i < length; i++) {
    unsigned char c = (unsigned char)text[i];
    char escape[8];
    if (c == '"' || c == '\\') {
      escape[0] = '\\'; escape[1] = (char)c;
      append(b, escape, 2);
    } else if (c < 0x20) {
      snprintf(escape, sizeof escape, "\\u%04x", c);
      append(b, escape, 6);
    } else {
      append(b, (const char *)&c, 1);
    }
  }
  append_text(b, "\"");
}

/* ---- The selected-text scene. ---- */

typedef struct scene_state {
  tp_scene scene;            /* first, so a tp_scene * is a scene_state * */
  const tp_context *context; /* borrowed from the host until destroy */
  char *translation;         /* NULL until "Translate" is pressed */
  size_t translation_length; /* in bytes; the text may contain U+0000 */
  buffer json;               /* the last rendering, returned by render */
} scene_state;

static tp_status scene_render(const tp_scene *scene, tp_string *out_json) {
  scene_state *state = (scene_state *)scene;
  const tp_context *context = state->context;
  buffer *json = &state->json;
  json->length = 0;
  append_text(json, "{\"version\":1,\"root\":{\"type\":\"vstack\",\"alignment\":\"leading\",\"children\":[");
  append_text(json, "{\"type\":\"text\",\"text\":");
  append_json_string(json, context->has_input_text ? context->input_text.data : "",
                     context->has_input_text ? context->input_text.length : 0);
  append_text(json, "},{\"type\":\"text\",\"text\":");
  append_json_string(json, state->translation ? state->translation : "", state->translation_length);
  append_text(json, "},{\"type\":\"button\",\"id\":\"translate\",\"enabled\":true,"
                    "\"label\":{\"type\":\"label\",\"title\":\"Translate\",\"systemImage\":\"globe\"}}");
  append_text(json, ",{\"type\":\"button\",\"id\":\"replace\",\"enabled\":");
  append_text(json, context->allows_replacement && state->translation ? "true" : "false");
  append_text(json, ",\"label\":{\"type\":\"text\",\"text\":\"Replace with Translation\"}}]}}");
  *out_json = (tp_string){json->data, json->length};
  return TP_STATUS_OK;
}

static tp_status scene_perform_action(const tp_scene *scene, const char *action_id) {
  scene_state *state = (scene_state *)scene;
  const tp_context *context = state->context;
  if (strcmp(action_id, "translate") == 0) {
    free(state->translation);
    state->translation_length = context->has_input_text ? context->input_text.length : 0;
    state->translation = rot13(context->has_input_text ? context->input_text.data : "", state->translation_length);
    return state->translation ? TP_STATUS_OK : TP_STATUS_FAILED;
  }
  if (strcmp(action_id, "replace") == 0 && context->allows_replacement && state->translation) {
    tp_string translation = {state->translation, state->translation_length};
    context->finish(context, &translation);
    return TP_STATUS_OK;
  }
  return TP_STATUS_NOT_FOUND;
}

static tp_status scene_set_text(const tp_scene *scene, const char *field_id, tp_string value) {
  (void)scene; (void)field_id; (void)value;
  return TP_STATUS_NOT_FOUND; /* this scene has no text fields */
}

static void scene_destroy(const tp_scene *scene) {
  scene_state *state = (scene_state *)scene;
  free(state->translation);
  free(state->json.data);
  free(state);
}

static const tp_scene *create_scene(tp_provider *self, const tp_context *context) {
  (void)self;
  scene_state *state = calloc(1, sizeof *state);
  if (!state) return NULL;
  state->scene = (tp_scene){
      .struct_size = sizeof(tp_scene),
      .provider_data = state,
      .render = scene_render,
      .perform_action = scene_perform_action,
      .set_text = scene_set_text,
      .destroy = scene_destroy,
  };
  state->context = context;
  return &state->scene;
}

static const tp_selected_text_scene_factory scene_factory = {
    .struct_size = sizeof(tp_selected_text_scene_factory),
    .create_scene = create_scene,
};

/* ---- The headless translate capability. ---- */

static int is_pair(const char *source, const char *target) {
  return (strcmp(source, "en") == 0 && strcmp(target, "en-x-rot13") == 0) ||
         (strcmp(source, "en-x-rot13") == 0 && strcmp(target, "en") == 0);
}

static tp_status translate(tp_provider *self, const char *source, const char *target, const tp_string *texts,
                           size_t count, const tp_translation_sink *sink, tp_string *out_message) {
  (void)self;
  static const char unsupported[] = "Rot13 translates only between 'en' and 'en-x-rot13'";
  if (!is_pair(source, target)) {
    *out_message = (tp_string){unsupported, sizeof unsupported - 1};
    return TP_STATUS_UNSUPPORTED_LANGUAGE_PAIRING;
  }
  for (size_t i = 0; i < count; i++) {
    char *translated = rot13(texts[i].data ? texts[i].data : "", texts[i].length);
    if (!translated) return TP_STATUS_FAILED;
    sink->translation(sink, i, (tp_string){translated, texts[i].length});
    free(translated);
  }
  return TP_STATUS_OK;
}

static tp_status languages(tp_provider *self, const tp_language_sink *sink) {
  (void)self;
  tp_string no_note = {NULL, 0};
  sink->pair(sink, "en", "en-x-rot13", TP_AVAILABILITY_INSTALLED, no_note);
  sink->pair(sink, "en-x-rot13", "en", TP_AVAILABILITY_INSTALLED, no_note);
  return TP_STATUS_OK;
}

static const tp_translator translator = {
    .struct_size = sizeof(tp_translator),
    .translate = translate,
    .languages = languages,
};

/* ---- The entry table. ---- */

static tp_provider *provider_create(const tp_host *host) {
  tp_provider *self = calloc(1, sizeof *self);
  if (!self) return NULL;
  self->host = host;
  log_line(self, TP_LOG_DEBUG, "Rot13 ready");
  return self;
}

static void provider_destroy(tp_provider *self) { free(self); }

static const void *get_capability(tp_provider *self, const char *id) {
  (void)self;
  if (strcmp(id, TP_CAPABILITY_SELECTED_TEXT_SCENE) == 0) return &scene_factory;
  if (strcmp(id, TP_CAPABILITY_TRANSLATE) == 0) return &translator;
  return NULL;
}

static const tp_entry entry = {
    .struct_size = sizeof(tp_entry),
    .abi_major = TP_ABI_VERSION_MAJOR,
    .abi_minor = TP_ABI_VERSION_MINOR,
    .create = provider_create,
    .destroy = provider_destroy,
    .get_capability = get_capability,
};

TP_EXPORT const tp_entry *translation_provider_entry_v2(void) { return &entry; }
