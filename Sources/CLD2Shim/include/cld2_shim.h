/*
 * cld2_shim.h: a C face for CLD2 (Debian libcld2-dev), whose API is C++ only.
 * Only Core's LanguageDetector uses it.
 */
#ifndef CLD2_SHIM_H
#define CLD2_SHIM_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One candidate language: CLD2's code ("en", "zh-Hant", "un" for unknown),
 * its English name, and the percentage of the text in it. */
typedef struct cld2_candidate {
  const char *code; /* static; never freed */
  const char *name; /* static; never freed */
  int percent;
} cld2_candidate;

/* Detects the languages of `length` bytes of UTF-8 plain text. Fills up to
 * three candidates, best first, and whether CLD2 considers the result
 * reliable. Returns false when the input is not valid UTF-8. */
bool cld2_detect(const char *text, int length, cld2_candidate candidates[3], bool *is_reliable);

/* The English name CLD2 knows for a language tag or code ("es", "pt-BR",
 * "spa"), in capitals ("SPANISH"); NULL when it knows none. Static. */
const char *cld2_language_name(const char *tag);

#ifdef __cplusplus
}
#endif

#endif
