import Foundation

/// Why a translation failed, as Apple's `TranslationError`: a struct with one
/// static member per kind of failure, matched with `~=`, so that
///
/// ```swift
/// do { … } catch TranslationError.unsupportedLanguagePairing { … }
/// ```
///
/// works as on Apple's platforms. Unlike Apple's, every error also carries
/// the host's one-line message (`failureReason`): which provider, what it
/// said, what to do.
public struct TranslationError: Error, LocalizedError, Sendable, CustomStringConvertible {
  enum Kind: Sendable {
    case nothingToTranslate, unableToIdentifyLanguage, internalError, unsupportedSourceLanguage
    case unsupportedTargetLanguage, unsupportedLanguagePairing, alreadyCancelled, notInstalled
  }

  let kind: Kind
  /// The host's explanation, or nil for the bare static members.
  let reason: String?

  init(_ kind: Kind, reason: String? = nil) {
    self.kind = kind
    self.reason = reason
  }

  /// There was no text to translate.
  public static let nothingToTranslate = TranslationError(.nothingToTranslate)
  /// The source language could not be detected from the text.
  public static let unableToIdentifyLanguage = TranslationError(.unableToIdentifyLanguage)
  /// The provider or the host failed: a crash, a missed deadline, no provider installed.
  public static let internalError = TranslationError(.internalError)
  /// The provider does not translate from the source language.
  public static let unsupportedSourceLanguage = TranslationError(.unsupportedSourceLanguage)
  /// The provider does not translate into the target language.
  public static let unsupportedTargetLanguage = TranslationError(.unsupportedTargetLanguage)
  /// The provider does not translate this pair, or the two are one language.
  public static let unsupportedLanguagePairing = TranslationError(.unsupportedLanguagePairing)
  /// The session was used after `cancel()`.
  public static let alreadyCancelled = TranslationError(.alreadyCancelled)
  /// The pair is supported, but what it needs is not installed, and a
  /// session cannot install it.
  public static let notInstalled = TranslationError(.notInstalled)

  /// Whether `error` is a `TranslationError` of the same kind as `match`.
  public static func ~= (match: TranslationError, error: any Error) -> Bool {
    (error as? TranslationError)?.kind == match.kind
  }

  /// What failed, in a few words.
  public var errorDescription: String? {
    switch kind {
    case .nothingToTranslate: "Nothing to translate"
    case .unableToIdentifyLanguage: "Unable to identify the language"
    case .internalError: "Unable to translate"
    case .unsupportedSourceLanguage: "Unsupported source language"
    case .unsupportedTargetLanguage: "Unsupported target language"
    case .unsupportedLanguagePairing: "Unsupported language pairing"
    case .alreadyCancelled: "The translation session was cancelled"
    case .notInstalled: "Languages not installed"
    }
  }

  /// Why, in the host's words.
  public var failureReason: String? { reason }

  public var description: String {
    [errorDescription, reason].compactMap(\.self).joined(separator: ": ")
  }

  /// The same kind of error with `reason`.
  func because(_ reason: String) -> TranslationError { TranslationError(kind, reason: reason) }
}
