import Core
import Testing

/// Tags already in lower case, which `LanguageTag.normalized` returns as
/// they are without splitting them (most requests' tags), beside lower-case
/// tags that it must still change: the short path and the general one agree.
@Suite struct LanguageTagLowerCaseTests {
  @Test(arguments: [
    // Kept as they are.
    ("en", "en"), ("eng", "eng"), ("es-419", "es-419"), ("en-x-rot13", "en-x-rot13"), ("en-x-ab-cd", "en-x-ab-cd"),
    ("de-1996", "de-1996"), ("a1-b2c3", "a1-b2c3"), ("en-x", "en-x"), ("en-", "en-"), ("", ""), ("x-abc", "x-abc"),
    // Lower case, yet changed: a region, a script, before private use only.
    ("pt-br", "pt-BR"), ("zh-hant", "zh-Hant"), ("x-ab", "x-AB"), ("en--us", "en--US"), ("sgn-be-fr", "sgn-BE-FR"),
    ("en-abcd-x-abcd", "en-Abcd-x-abcd"), ("en-us-x-us", "en-US-x-us"),
    // Other characters take the general path.
    ("en_us", "en-US"), ("en.utf-8", "en"), ("en@euro", "en"), ("En", "en"),
  ])
  func lowerCaseTagsReadAsBCP47(_ tag: String, _ normalized: String) {
    #expect(LanguageTag.normalized(tag) == normalized)
  }
}
