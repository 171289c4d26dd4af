/*
 * translation_provider_v1.h: the tables of ABI version 1 that differ from
 * version 2, for the host, which still loads ABI 1 providers, and for
 * authors migrating one (installed beside translation_provider.h; ABI.md,
 * "Migrating an ABI 1 provider"). A new provider is written against
 * translation_provider.h (ABI 2). The types the two versions share (tp_host,
 * tp_context, tp_scene, the sinks) have the same layout in both.
 *
 * An ABI 1 provider exports translation_provider_entry, returning a
 * tp_v1_entry; its calls take no instance pointer (the provider keeps its
 * state in globals), and the host never freed its tp_host or contexts.
 */
#ifndef TRANSLATION_PROVIDER_V1_H
#define TRANSLATION_PROVIDER_V1_H

#include "translation_provider.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TP_V1_ABI_VERSION_MAJOR 1
#define TP_V1_ABI_VERSION_MINOR 1

typedef struct tp_v1_entry {
  uint32_t struct_size;
  uint32_t abi_major;
  uint32_t abi_minor;
  bool (*init)(const tp_host *host);
  void (*deinit)(void);
  const void *(*get_capability)(const char *id);
} tp_v1_entry;

typedef const tp_v1_entry *(*tp_v1_entry_function)(void);

typedef struct tp_v1_selected_text_scene_factory {
  uint32_t struct_size;
  const tp_scene *(*create_scene)(const tp_context *context);
} tp_v1_selected_text_scene_factory;

typedef struct tp_v1_translator {
  uint32_t struct_size;
  tp_status (*translate)(const char *source, const char *target, const tp_string *texts, size_t count,
                         const tp_translation_sink *sink, tp_string *out_message);
  tp_status (*languages)(const tp_language_sink *sink);
} tp_v1_translator;

#ifdef __cplusplus
}
#endif

#endif /* TRANSLATION_PROVIDER_V1_H */
