/*
 * translation_provider.h: the translation-host provider ABI, version 2.
 *
 * This header is the only thing a provider and the host share. A provider is a
 * shared object that exports exactly one function, translation_provider_entry_v2,
 * returning a static, versioned entry table. Everything else is reached
 * through that table: the provider's instance (`self`, created by `create`) is
 * the first argument of every call, capabilities are looked up by string id,
 * and every struct begins with its size so it can grow at the end without
 * breaking providers built against an older header.
 *
 * Conventions used by every member below:
 *   - Strings are UTF-8 with an explicit length (tp_string) and are not
 *     required to be NUL-terminated. Where a `const char *` appears it is a
 *     NUL-terminated ASCII identifier (ids, language tags).
 *   - "Borrowed" memory belongs to the caller and is valid only for the
 *     duration of the call; copy what you keep.
 *   - Thread tags: [host-thread] means the call happens on the provider's
 *     main thread (the runner's main thread, which also runs the main dispatch
 *     queue between calls, as an app's run loop does), never concurrently with
 *     another [host-thread] call; [any-thread] means the function may be
 *     called from any thread, at any time between creation and destroy.
 *   - Memory the host allocates (the tp_host and its strings, each scene's
 *     tp_context) is freed by the host: the tp_host after destroy returns,
 *     a tp_context after its scene's destroy returns. Never keep pointers
 *     into them past that point.
 *
 * The full contract, with the view-tree JSON schema and a walkthrough of a
 * complete C provider, is Documentation/ABI.md.
 */
#ifndef TRANSLATION_PROVIDER_H
#define TRANSLATION_PROVIDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TP_EXPORT __attribute__((visibility("default")))
#else
#define TP_EXPORT
#endif

/* ABI version. The host loads a provider whose major it speaks and whose
 * minor is any value: minors only add members at the ends of structs, new
 * capability ids and optional view-tree keys, which an older host ignores and
 * a newer host detects through struct_size. A major change is a new,
 * incompatible ABI with its own entry symbol (this host still loads ABI 1
 * providers through translation_provider_entry; Documentation/ABI.md says how
 * one migrates). */
#define TP_ABI_VERSION_MAJOR 2
#define TP_ABI_VERSION_MINOR 1

/* Capability ids, passed to tp_entry.get_capability. */
#define TP_CAPABILITY_SELECTED_TEXT_SCENE "tp.scene.selected-text/1"
#define TP_CAPABILITY_TRANSLATE "tp.translate/1"
#define TP_CAPABILITY_TRANSLATE_STREAM "tp.translate.stream/1" /* since 2.1 */

/* A UTF-8 string with an explicit length. `data` may be NULL only when
 * `length` is 0. It is not required to be NUL-terminated. */
typedef struct tp_string {
  const char *data;
  size_t length;
} tp_string;

/* Result of a provider call. 0 is success; everything else is a failure the
 * host reports to the user with the provider's message, if one was given. */
typedef int32_t tp_status;
enum {
  TP_STATUS_OK = 0,
  TP_STATUS_FAILED = 1,                       /* anything not listed below */
  TP_STATUS_INVALID_ARGUMENT = 2,             /* a malformed request */
  TP_STATUS_NOT_FOUND = 3,                    /* unknown action or field id */
  TP_STATUS_NOTHING_TO_TRANSLATE = 4,         /* empty input */
  TP_STATUS_UNSUPPORTED_SOURCE_LANGUAGE = 5,
  TP_STATUS_UNSUPPORTED_TARGET_LANGUAGE = 6,
  TP_STATUS_UNSUPPORTED_LANGUAGE_PAIRING = 7, /* includes same-language pairs */
  TP_STATUS_UNABLE_TO_IDENTIFY_LANGUAGE = 8,
};

/* Severity of a log message. */
typedef int32_t tp_log_level;
enum {
  TP_LOG_DEBUG = 0,
  TP_LOG_INFO = 1,
  TP_LOG_WARNING = 2,
  TP_LOG_ERROR = 3,
};

/* Availability of a language pair, as Apple's LanguageAvailability.Status. */
typedef int32_t tp_availability;
enum {
  TP_AVAILABILITY_INSTALLED = 0,   /* ready to translate now */
  TP_AVAILABILITY_SUPPORTED = 1,   /* possible once something is installed */
  TP_AVAILABILITY_UNSUPPORTED = 2, /* not possible with this provider */
};

/* ------------------------------------------------------------------------ */
/* The host, handed to tp_entry.create.                                      */
/* ------------------------------------------------------------------------ */

typedef struct tp_host {
  uint32_t struct_size; /* sizeof(tp_host) as the host was built */
  uint32_t abi_major;   /* the host's TP_ABI_VERSION_MAJOR */
  uint32_t abi_minor;   /* the host's TP_ABI_VERSION_MINOR */
  void *host_data;      /* opaque; for the host only */

  /* Absolute path of the provider's bundle directory (NUL-terminated).
   * Borrowed; valid until destroy. Useful to find resources in the bundle. */
  const char *bundle_path;

  /* Absolute path of the shared object the host loaded (NUL-terminated), or
   * NULL when the provider was linked in rather than loaded. Borrowed; valid
   * until destroy. (The Swift SDK uses it to run the image's @main.) */
  const char *executable_path;

  /* Writes one line to the host's log. `message` is borrowed. [any-thread] */
  void (*log)(const struct tp_host *host, tp_log_level level, tp_string message);

  /* Since 1.1 (check struct_size): the provider's settings as a JSON object,
   * NUL-terminated: every setting its Info.plist declares under TPSettings,
   * with the user's value or the declared default, typed as declared (string,
   * boolean or integer). Borrowed; valid until destroy. */
  const char *settings_json;
} tp_host;

/* ------------------------------------------------------------------------ */
/* The entry table: the only exported symbol returns a pointer to one.       */
/* ------------------------------------------------------------------------ */

/* The provider's instance: whatever the provider allocates in create. Opaque
 * to the host, which passes it back as the first argument of every call. */
typedef struct tp_provider tp_provider;

typedef struct tp_entry {
  uint32_t struct_size; /* sizeof(tp_entry) as the provider was built */
  uint32_t abi_major;   /* TP_ABI_VERSION_MAJOR the provider was built with */
  uint32_t abi_minor;   /* TP_ABI_VERSION_MINOR the provider was built with */

  /* Creates the provider's instance, once, before any other member, after the
   * host checked abi_major. `host` is borrowed and valid until destroy
   * returns; keep the pointer. Returns NULL if the provider cannot work (it
   * should log why first); the host then calls nothing else, not even
   * destroy. Must not block for long and must not show UI. [host-thread] */
  tp_provider *(*create)(const tp_host *host);

  /* Destroys the instance, last. Release everything. The host then frees the
   * tp_host, and never unloads the shared object (Swift runtimes do not
   * support unloading). [host-thread] */
  void (*destroy)(tp_provider *self);

  /* Returns the capability table for `id` (a NUL-terminated string such as
   * TP_CAPABILITY_TRANSLATE), or NULL if the provider does not implement it.
   * Unknown ids must return NULL. The returned pointer is owned by the
   * provider and stays valid until destroy. [any-thread] */
  const void *(*get_capability)(tp_provider *self, const char *id);
} tp_entry;

/* The one symbol a provider exports. It must return a pointer to a static
 * tp_entry (never NULL for a working provider) and do nothing else: no
 * allocation, no I/O. The host may call it more than once. The name carries
 * the major version, so a provider can never be called through the table of
 * another major. */
typedef const tp_entry *(*tp_entry_function)(void);
TP_EXPORT const tp_entry *translation_provider_entry_v2(void);

/* ------------------------------------------------------------------------ */
/* The context: what the host gives a scene. Apple's                         */
/* TranslationUIProviderContext, plus what Linux needs.                      */
/* ------------------------------------------------------------------------ */

typedef struct tp_context {
  uint32_t struct_size; /* sizeof(tp_context) as the host was built */
  void *host_data;      /* opaque; for the host only */

  /* The text to translate, or has_input_text == false when there is none
   * (Apple's inputText == nil). Borrowed; valid until the scene is destroyed. */
  bool has_input_text;
  tp_string input_text;

  /* Whether finish() may replace the caller's text (Apple's allowsReplacement). */
  bool allows_replacement;

  /* Language hints from the caller, BCP-47 tags (NUL-terminated), or NULL
   * when the caller has none: the source language it knows the text is in,
   * and the language it wants. Borrowed; valid until the scene is destroyed. */
  const char *source_language;
  const char *target_language;

  /* Completes the scene; the host then closes it and destroys it. `translation`
   * NULL means "dismiss without replacement". A non-NULL translation when
   * allows_replacement is false is ignored (treated as NULL), as Apple
   * documents. Call it once: a second call, or a translation that is not
   * valid UTF-8, is a violation, and the host stops the provider and replaces
   * nothing. Never call it after the scene's destroy returned: the host has
   * freed the context then.
   * `translation->data` is borrowed; the host copies it. [any-thread] */
  void (*finish)(const struct tp_context *context, const tp_string *translation);

  /* Asks the host to give the scene more room (Apple's expandSheet). [any-thread] */
  void (*expand_sheet)(const struct tp_context *context);

  /* Tells the host the view tree changed outside a host call (for example
   * when background work finished); the host calls render again soon.
   * Cheap; may be called many times. [any-thread] */
  void (*request_render)(const struct tp_context *context);
} tp_context;

/* ------------------------------------------------------------------------ */
/* Capability "tp.scene.selected-text/1": the selected-text scene.           */
/* ------------------------------------------------------------------------ */

typedef struct tp_scene tp_scene;

/* A live scene. All members are [host-thread]: the host never calls into one
 * scene from two threads at once. */
struct tp_scene {
  uint32_t struct_size; /* sizeof(tp_scene) as the provider was built */
  void *provider_data;  /* opaque; for the provider only */

  /* Produces the scene's current view tree as a JSON document (the schema is
   * in Documentation/ABI.md: the keys "version", "root" and, while work the
   * scene started when it appeared has not finished, "settling": true, which
   * scripted presses and validate wait on; the scene then calls
   * request_render when that work ends). Writes it to *out_json. The memory is owned by
   * the scene and stays valid until the next call into this scene or destroy.
   * Returns TP_STATUS_OK, or a failure with an optional message in *out_json. */
  tp_status (*render)(const tp_scene *scene, tp_string *out_json);

  /* Performs the action of the control with `action_id` (a button's "id" from
   * the view tree; NUL-terminated). Returns TP_STATUS_NOT_FOUND for an unknown
   * or disabled control. The host renders again afterwards. */
  tp_status (*perform_action)(const tp_scene *scene, const char *action_id);

  /* Sets the text of the text field `field_id` to `value` (borrowed), as if the
   * person typed it. Returns TP_STATUS_NOT_FOUND for an unknown field. */
  tp_status (*set_text)(const tp_scene *scene, const char *field_id, tp_string value);

  /* Destroys the scene. After this the provider must not call the context:
   * the host frees it as soon as destroy returns. */
  void (*destroy)(const tp_scene *scene);
};

typedef struct tp_selected_text_scene_factory {
  uint32_t struct_size; /* sizeof(tp_selected_text_scene_factory) */

  /* Creates a scene of the instance `self` for `context`, which is borrowed
   * and valid until the scene's destroy returns. Returns NULL on failure (log
   * why first). [host-thread] */
  const tp_scene *(*create_scene)(tp_provider *self, const tp_context *context);
} tp_selected_text_scene_factory;

/* ------------------------------------------------------------------------ */
/* Capability "tp.translate/1": headless translation.                        */
/* ------------------------------------------------------------------------ */

/* Receives translations; implemented by the host. All members are borrowed
 * and valid only during the call that received the sink. */
typedef struct tp_translation_sink {
  uint32_t struct_size;
  void *host_data;

  /* Delivers the translation of request `index` (0-based, in request order).
   * `text` is borrowed; the host copies it. Each index must be answered
   * exactly once before translate returns. [any-thread, serialized] */
  void (*translation)(const struct tp_translation_sink *sink, size_t index, tp_string text);
} tp_translation_sink;

/* Receives the provider's language pairs; implemented by the host. */
typedef struct tp_language_sink {
  uint32_t struct_size;
  void *host_data;

  /* Reports one pair (BCP-47 tags, NUL-terminated, borrowed) and its status.
   * `note` (borrowed; may have length 0) says what to do for a `supported`
   * pair, for example which package to install. Pairs that are never reported
   * are unsupported. [host-thread] */
  void (*pair)(const struct tp_language_sink *sink, const char *source, const char *target,
               tp_availability availability, tp_string note);
} tp_language_sink;

typedef struct tp_translator {
  uint32_t struct_size; /* sizeof(tp_translator) */

  /* Translates `count` texts (borrowed) from `source` to `target` (BCP-47,
   * NUL-terminated), answering each index through `sink` before returning.
   * On failure returns a tp_status and may write a message (owned by the
   * provider, valid until the next call) to *out_message; texts already
   * answered are discarded by the host. [host-thread] */
  tp_status (*translate)(tp_provider *self, const char *source, const char *target,
                         const tp_string *texts, size_t count, const tp_translation_sink *sink,
                         tp_string *out_message);

  /* Reports every language pair the provider knows through `sink`.
   * [host-thread] */
  tp_status (*languages)(tp_provider *self, const tp_language_sink *sink);
} tp_translator;

/* ------------------------------------------------------------------------ */
/* Capability "tp.translate.stream/1" (since 2.1): an open batch.            */
/* ------------------------------------------------------------------------ */

/* Rationale: a pipelined engine (Apertium's 13 processes) drains whenever a
 * batch must come back whole before the next goes in. With this capability
 * the host keeps handing the provider texts while others are in flight, and
 * takes each translation as it is ready; a provider without it is served
 * one tp.translate/1 batch at a time, as before. It complements
 * tp.translate/1 (which still serves the language list) and never replaces it. */

/* The texts of an open batch; implemented by the host. Borrowed, valid only
 * during the stream translate call that received it. */
typedef struct tp_text_source {
  uint32_t struct_size;
  void *host_data;

  /* Takes the next text: writes it to *text (borrowed, valid until the next
   * call of next) and its index to *index, and returns 1. Returns 0 when no
   * text is there now (more may come: poll `descriptor`, or ask again after
   * an answer), and -1 when no more will come in this call (then return
   * once every index taken has been answered). Indexes grow in the order
   * texts are taken and are never reused while the instance lives (a call's
   * first need not be 0): use them only to answer. Called after the call
   * returned, next returns -1. [any-thread, serialized with the sink] */
  int32_t (*next)(const struct tp_text_source *source, size_t *index, tp_string *text);

  /* Readable when next may have a text; -1 when the host gives none. Poll it
   * beside your own work; never read or write it. Not valid after next
   * returned -1. */
  int32_t descriptor;
} tp_text_source;

typedef struct tp_stream_translator {
  uint32_t struct_size; /* sizeof(tp_stream_translator) */

  /* Translates the texts of `texts` from `source` to `target` (BCP-47,
   * NUL-terminated) as they come, answering each index taken through `sink`
   * in any order, each as soon as it is ready. Each text is translated as
   * if alone, whatever else is in flight. Return when next returned 0 or -1
   * and every index taken has been answered (the host calls again when
   * more texts come). On failure returns a tp_status and may write a
   * message (owned by the provider, valid until the next call) to
   * *out_message; indexes taken and not answered fail with it. [host-thread]
   *
   * A broken rule costs the request it belongs to, never the others: an
   * index answered twice before its request is answered (later, the second
   * answer is ignored), answered with NULL data and a length, with bytes
   * that are not UTF-8, or with more than the runner protocol carries
   * (16 MiB per request), and an index taken and not answered when the call
   * returns, each fail the host's request that held that text; an answer for
   * an index not given in this call, and any call of `texts` or `sink` after
   * this call returned, are ignored (and logged). A text never answered by a
   * call that never returns holds back the requests after it until the
   * host's deadline ends the runner. */
  tp_status (*translate)(tp_provider *self, const char *source, const char *target,
                         const tp_text_source *texts, const tp_translation_sink *sink,
                         tp_string *out_message);
} tp_stream_translator;

#ifdef __cplusplus
}
#endif

#endif /* TRANSLATION_PROVIDER_H */
