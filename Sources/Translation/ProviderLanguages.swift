import Core
import Foundation
import RunnerProtocol
import System

/// The language pairs a provider reported, asked in Apple's types: the
/// questions themselves (which pair serves a request, by which of the
/// provider's own tags, and if not, why) are Core's `ProviderPairs`, the
/// one matcher the service, the CLI and the library share.
struct ProviderLanguages: Sendable {
  let pairs: ProviderPairs

  init(pairs: [LanguagePairStatus]) {
    self.pairs = ProviderPairs(pairs)
  }

  /// The pair that serves `source` → `target` (see `ProviderPairs.pair`).
  func pair(from source: Locale.Language, to target: Locale.Language) -> LanguagePairStatus? {
    pairs.pair(from: source.languageTag, to: target.languageTag)
  }

  /// Apple's `LanguageAvailability.Status` of `source` → `target`.
  func status(from source: Locale.Language, to target: Locale.Language) -> LanguageAvailability.Status {
    switch pairs.status(from: source.languageTag, to: target.languageTag) {
    case .installed: .installed
    case .supported: .supported
    case .unsupported: .unsupported
    }
  }

  /// Every language in a pair that is installed or supported, once, in the provider's order.
  var languages: [Locale.Language] {
    pairs.languages.map(Locale.Language.init(languageTag:))
  }

  /// Why `source` → `target` cannot be translated now, or nil when it can.
  func refusal(from source: Locale.Language, to target: Locale.Language) -> (any Error)? {
    pairs.refusal(from: source.languageTag, to: target.languageTag).map(TranslationError.translating)
  }

  /// The provider's own tags to ask again with after it refused `requested` (`error`).
  /// - Throws: the `TranslationError` saying why the request cannot be translated.
  func fallback(after error: HostError, from requested: (source: String, target: String)) throws -> (
    source: String, target: String
  ) {
    do {
      return try pairs.fallback(after: error, from: requested.source, to: requested.target)
    } catch {
      throw TranslationError.translating(error)
    }
  }
}
