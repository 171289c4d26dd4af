import Foundation

extension TranslationSession {
  /// A translation, with the languages actually used, as Apple's.
  public struct Response: Sendable {
    /// The language translated from.
    public let sourceLanguage: Locale.Language
    /// The language translated into (with a nil session target, the one chosen).
    public let targetLanguage: Locale.Language
    /// The request's text.
    public let sourceText: String
    /// Its translation.
    public let targetText: String
    /// The request's identifier, or nil if it had none.
    public let clientIdentifier: String?

    /// A response, for tests and previews; `clientIdentifier` defaults to nil, as Apple's.
    public init(
      sourceLanguage: Locale.Language, targetLanguage: Locale.Language, sourceText: String, targetText: String,
      clientIdentifier: String? = nil
    ) {
      self.sourceLanguage = sourceLanguage
      self.targetLanguage = targetLanguage
      self.sourceText = sourceText
      self.targetText = targetText
      self.clientIdentifier = clientIdentifier
    }
  }
}
