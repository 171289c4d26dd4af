#ifndef APERTIUM_INTEGER_SCAN_H
#define APERTIUM_INTEGER_SCAN_H

#include <stdbool.h>
#include <stdint.h>

/// Reads the decimal integer at the start of `text` (UTF-16, NUL-terminated)
/// as ICU's `u_sscanf(text, "%d", value)` does, for the texts whose answer
/// is certain without ICU: one to nine ASCII digits, then the end of the text
/// or `>` (Apertium's tag numbers, `<3>`). False for any other text, which
/// is left to ICU.
bool tp_apertium_scan_integer(const uint16_t *text, int32_t *value);

/// ICU's own `u_sscanf(text, "%d", value)`, whatever this library
/// interposes: the number of values read, or -1 if ICU's ustdio library
/// cannot be found. For tests that compare the two.
int32_t tp_apertium_icu_scan_integer(const uint16_t *text, int32_t *value);

#endif
