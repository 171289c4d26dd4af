import Foundation
import Testing

@testable import Translation

/// Provider tags survive `Locale.Language`, and requests find the provider's languages.
@Suite struct LanguageTagTests {
  @Test(arguments: ["en", "es", "en-x-rot13", "pt-BR", "en-US", "sr-Latn", "ca-valencia", "es-419"])
  func aProvidersTagRoundTrips(_ tag: String) {
    #expect(Locale.Language(languageTag: tag).languageTag == tag)
  }

  @Test(arguments: [
    ("en", "en", true), ("en", "en-GB", true), ("en-US", "en", false), ("en-US", "en-US", true),
    ("en", "en-x-rot13", false), ("en-x-rot13", "en", false), ("ind", "id", true), ("es", "pt", false),
  ])
  func aProviderLanguageServesARequest(_ provider: String, _ requested: String, _ serves: Bool) {
    #expect(Locale.Language(languageTag: provider).serves(Locale.Language(languageTag: requested)) == serves)
  }
}
