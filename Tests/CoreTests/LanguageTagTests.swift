import Core
import Testing

/// Tags as callers spell them, read once; and the one rule that fills in a
/// request's languages.
@Suite struct LanguageTagTests {
  @Test(arguments: [
    ("en", "en"), ("EN", "en"), ("en-us", "en-US"), ("en_US", "en-US"), ("es_ES.UTF-8", "es-ES"),
    ("ca_ES.UTF-8@valencia", "ca-ES"), ("zh-hant-tw", "zh-Hant-TW"), ("sr_Latn", "sr-Latn"), ("es-419", "es-419"),
    ("en-x-rot13", "en-x-rot13"), ("EN-X-ROT13", "en-x-rot13"), ("pt-BR", "pt-BR"),
  ])
  func bothSpellingsReadAsBCP47(_ tag: String, _ normalized: String) {
    #expect(LanguageTag.normalized(tag) == normalized)
  }

  @Test(arguments: [
    ("es", "es-ES", true), ("es", "es_ES.UTF-8", true), ("es-ES", "es-ES", true), ("en-US", "en", false),
    ("en-US", "en-GB", false), ("en", "en-x-rot13", false), ("en-x-rot13", "en-x-rot13", true), ("es", "ca", false),
    ("en-US", "en_US.UTF-8", true), ("ca-valencia", "ca", false), ("ca", "ca-valencia", false),
  ])
  func aProviderLanguageWithoutARegionServesEveryRegion(_ provided: String, _ requested: String, _ serves: Bool) {
    #expect(LanguageTag.serves(provided, requested) == serves)
  }

  @Test(arguments: [
    ("en-US", "en-GB", true), ("en", "en_US", true), ("en", "en-x-rot13", false), ("en", "es", false),
    ("pt-BR", "PT", true),
  ])
  func oneLanguage(_ first: String, _ second: String, _ same: Bool) {
    #expect(LanguageTag.isSameLanguage(first, second) == same)
  }

  @Test func givenLanguagesAreKeptAndMissingOnesFilledIn() throws {
    let environment = ["LANG": "es_ES.UTF-8"]
    #expect(try RequestLanguages.fill(source: "en", target: "de", texts: ["x"], environment: environment) == ("en", "de"))
    #expect(try RequestLanguages.fill(source: "en", target: "", texts: ["x"], environment: environment) == ("en", "es"))
    let detected = try RequestLanguages.fill(
      source: nil, target: nil, texts: ["The cat is on the table and the dog sleeps in the garden."], environment: environment)
    #expect(detected == ("en", "es"))
  }

  @Test func noTargetAndNoPreferredLanguageIsAnError() {
    #expect(throws: LanguageError.noTargetLanguage(source: "en")) {
      try RequestLanguages.fill(source: "en", target: nil, texts: ["x"], environment: ["LANG": "C.UTF-8"])
    }
    #expect(LanguageError.noTargetLanguage(source: "en").hostError.kind == .usage)
  }

  @Test func anUnreliableDetectionIsAnError() {
    #expect(throws: LanguageError.self) {
      try RequestLanguages.fill(source: nil, target: "es", texts: ["ok"], environment: [:])
    }
  }
}
