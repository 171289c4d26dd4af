import Foundation
import RunnerProtocol
import Testing

@testable import Translation

/// Provider tags survive `Locale.Language`, and requests find the provider's languages.
@Suite struct LanguageTagTests {
  @Test(arguments: ["en", "es", "en-x-rot13", "pt-BR", "en-US", "sr-Latn", "ca-valencia", "es-419"])
  func aProvidersTagRoundTrips(_ tag: String) {
    #expect(Locale.Language(languageTag: tag).languageTag == tag)
  }

  /// The library asks Core's one matcher (`ProviderPairs`), as the service
  /// and the CLI do: POSIX and BCP-47 spellings alike, a region the provider
  /// does not name falling back to its language.
  @Test(arguments: [
    ("en-GB", "es", LanguageAvailability.Status.installed), ("en_US", "es_ES", .installed), ("en-US", "es-419", .installed),
    ("en", "ca-ES", .supported), ("en-US", "fr", .unsupported), ("en", "en-x-rot13", .installed),
    ("en-x-rot13", "en", .unsupported), ("es", "pt", .unsupported),
  ])
  func aProviderLanguageServesARequest(_ source: String, _ target: String, _ status: LanguageAvailability.Status) {
    let pairs = ProviderLanguages(pairs: [
      LanguagePairStatus(source: "en", target: "es", availability: .installed, note: ""),
      LanguagePairStatus(source: "en", target: "ca", availability: .supported, note: ""),
      LanguagePairStatus(source: "en", target: "en-x-rot13", availability: .installed, note: ""),
    ])
    #expect(pairs.status(from: Locale.Language(languageTag: source), to: Locale.Language(languageTag: target)) == status)
  }
}
