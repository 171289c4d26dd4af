import Core
import Foundation

/// Which languages the user's default provider translates, as Apple's
/// `LanguageAvailability`.
///
/// Answers come from the provider's own list of language pairs, so the
/// first question starts the provider (in a sandboxed runner, kept until the
/// availability object goes away), or asks the resident service's.
public final class LanguageAvailability: Sendable {
  private let backend: any TranslationBackend
  /// The models the checks consider (iOS 26.4). The provider serves both
  /// strategies alike (`TranslationSession.Strategy`), so the answers are the same.
  public let preferredStrategy: TranslationSession.Strategy

  /// Checks the user's default provider.
  public convenience init() {
    self.init(preferredStrategy: .lowLatency)
  }

  /// Checks the user's default provider for `preferredStrategy`'s models (iOS 26.4).
  public convenience init(preferredStrategy: TranslationSession.Strategy) {
    self.init(backend: BackendChoice.standard(), preferredStrategy: preferredStrategy)
  }

  /// Checks the provider `provider` names (a bundle id, name or path),
  /// through the service that `serviceEnvironment` finds running, or always
  /// directly when it is nil.
  package convenience init(provider: String, serviceEnvironment: [String: String]? = nil) {
    self.init(backend: SessionBackend(provider: provider, serviceEnvironment: serviceEnvironment))
  }

  init(backend: any TranslationBackend, preferredStrategy: TranslationSession.Strategy = .lowLatency) {
    self.backend = backend
    self.preferredStrategy = preferredStrategy
  }

  /// Every language the provider translates from or into, installed or
  /// supported. Build sessions from these values: they keep the provider's
  /// tags, including private-use ones such as `en-x-rot13`, which
  /// `Locale.Language(identifier:)` drops. Empty when the provider cannot be asked.
  public var supportedLanguages: [Locale.Language] {
    get async { (try? await languages())?.languages ?? [] }
  }

  /// Whether `source` can be translated into `target`; a nil target means
  /// the user's preferred language that is not the source (`LANGUAGE`,
  /// `LC_ALL`, `LC_MESSAGES`, `LANG`). Same-language pairs, such as
  /// `en-US` → `en-GB`, are unsupported.
  ///
  /// Everything is unsupported, too, when the provider cannot be asked (none
  /// is installed, or it cannot start): this method cannot throw, as
  /// Apple's. `supportedLanguages` is then empty, and a session's
  /// `prepareTranslation()` throws `internalError`, whose `failureReason`
  /// says what is missing.
  public func status(from source: Locale.Language, to target: Locale.Language?) async -> Status {
    guard let target = target ?? Self.preferredTarget(for: source), let languages = try? await languages() else {
      return .unsupported
    }
    return languages.status(from: source, to: target)
  }

  /// Whether the language of `text` can be translated into `target`.
  ///
  /// The language is detected in the text (CLD2, which is trusted on 20
  /// characters or more, as Apple advises).
  /// - Throws: `TranslationError.unableToIdentifyLanguage`, with the
  ///   candidates in its reason, when detection is not reliable.
  public func status(for text: String, to target: Locale.Language?) async throws -> Status {
    let source: String
    do { source = try LanguageDetector.sourceLanguage(of: text) } catch { throw TranslationError.translating(error) }
    return await status(from: Locale.Language(languageTag: source), to: target)
  }

  /// The target Apple picks when there is none: the user's preferred language that is not `source`.
  static func preferredTarget(for source: Locale.Language) -> Locale.Language? {
    RequestLanguages.target(for: source.languageTag).map(Locale.Language.init(languageTag:))
  }

  private func languages() async throws -> ProviderLanguages {
    ProviderLanguages(pairs: try await backend.languagePairs())
  }
}
