#include <cstdio>  // compact_lang_det.h uses FILE without including it
#include <cld2/internal/lang_script.h>
#include <cld2/public/compact_lang_det.h>

#include "cld2_shim.h"

extern "C" bool cld2_detect(const char *text, int length, cld2_candidate candidates[3], bool *is_reliable) {
  // CLD2 leaves these unwritten when it returns early (text that is not
  // "interchange-valid", such as control characters): start them as unknown.
  CLD2::Language languages[3] = {CLD2::UNKNOWN_LANGUAGE, CLD2::UNKNOWN_LANGUAGE, CLD2::UNKNOWN_LANGUAGE};
  int percents[3] = {0, 0, 0};
  double scores[3] = {0, 0, 0};
  int valid_prefix = 0;
  int text_bytes = 0;
  bool reliable = false;
  CLD2::ExtDetectLanguageSummaryCheckUTF8(text, length, true, nullptr, 0, languages, percents, scores, nullptr,
                                          &text_bytes, &reliable, &valid_prefix);
  for (int i = 0; i < 3; i++) {
    candidates[i].code = CLD2::LanguageCode(languages[i]);
    candidates[i].name = CLD2::LanguageName(languages[i]);
    candidates[i].percent = percents[i];
  }
  *is_reliable = reliable;
  return valid_prefix == length;
}

extern "C" const char *cld2_language_name(const char *tag) {
  CLD2::Language language = CLD2::GetLanguageFromName(tag);
  return language == CLD2::UNKNOWN_LANGUAGE ? nullptr : CLD2::LanguageName(language);
}
