// A faster `u_sscanf(text, "%d", &value)` for Apertium's stages, loaded into
// them with LD_PRELOAD (ApertiumSupport's `ApertiumPipeline`).
//
// lttoolbox's StringUtils::stoi parses every tag number of every chunk with
// ICU's u_sscanf, which clones a DecimalFormat and builds a number parser
// for each call: about half of apertium-postchunk's CPU on English–Spanish.
// Texts that are certainly a small decimal integer (see the header) are
// read here; every other call goes to ICU unchanged.
#define _GNU_SOURCE
#include "apertium_integer_scan.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/ustdio.h>
#include <unicode/uvernum.h>

typedef int32_t (*vsscanf_function)(const UChar *, const char *, va_list);

bool tp_apertium_scan_integer(const uint16_t *text, int32_t *value) {
  int32_t result = 0;
  int digits = 0;
  // Nine digits at most: no overflow, and no question of how ICU rounds.
  while (digits < 9 && text[digits] >= u'0' && text[digits] <= u'9') {
    result = result * 10 + (text[digits] - u'0');
    digits++;
  }
  if (digits == 0 || (text[digits] != 0 && text[digits] != u'>')) return false;
  *value = result;
  return true;
}

/// ICU's u_vsscanf: the next definition after this library's (the stage's
/// ICU), else the one in ICU's ustdio library of the version built against.
static vsscanf_function icu_vsscanf(void) {
  static _Atomic(vsscanf_function) cached;
  vsscanf_function function = atomic_load_explicit(&cached, memory_order_acquire);
  if (function) return function;
  static const char name[] = "u_vsscanf_" U_ICU_VERSION_SHORT;
  function = (vsscanf_function)dlsym(RTLD_NEXT, name);
  if (!function) {
    void *library = dlopen("libicuio.so." U_ICU_VERSION_SHORT, RTLD_NOW | RTLD_LOCAL);
    if (library) function = (vsscanf_function)dlsym(library, name);
  }
  if (function) atomic_store_explicit(&cached, function, memory_order_release);
  return function;
}

static int32_t icu_sscanf(vsscanf_function function, const UChar *text, const char *pattern, ...) {
  va_list arguments;
  va_start(arguments, pattern);
  int32_t count = function(text, pattern, arguments);
  va_end(arguments);
  return count;
}

int32_t tp_apertium_icu_scan_integer(const uint16_t *text, int32_t *value) {
  vsscanf_function function = icu_vsscanf();
  return function ? icu_sscanf(function, text, "%d", value) : -1;
}

// ICU's name, versioned by its headers (u_sscanf_72 on Debian 12).
U_CAPI int32_t U_EXPORT2 u_sscanf(const UChar *text, const char *pattern, ...) {
  va_list arguments;
  va_start(arguments, pattern);
  if (strcmp(pattern, "%d") == 0) {
    int32_t value;
    if (tp_apertium_scan_integer(text, &value)) {
      *va_arg(arguments, int32_t *) = value;
      va_end(arguments);
      return 1;
    }
  }
  vsscanf_function function = icu_vsscanf();
  if (!function) {
    // Only code linked with ICU calls u_sscanf, so its ustdio is loaded.
    fputs("apertium-integer-scan: ICU's u_vsscanf_" U_ICU_VERSION_SHORT " is not loaded\n", stderr);
    abort();
  }
  int32_t count = function(text, pattern, arguments);
  va_end(arguments);
  return count;
}
