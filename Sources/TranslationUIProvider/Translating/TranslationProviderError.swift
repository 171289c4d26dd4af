/// Why a provider cannot serve a translation request; the host shows the
/// message and maps the case to its exit code. Names follow Apple's `TranslationError`.
public enum TranslationProviderError: Error, Equatable, Sendable {
  /// There is no content to translate.
  case nothingToTranslate
  /// The source language is not one this provider translates from.
  case unsupportedSourceLanguage(String)
  /// The target language is not one this provider translates to.
  case unsupportedTargetLanguage(String)
  /// The provider does not translate this pair (same-language pairs included).
  case unsupportedLanguagePairing(source: String, target: String)
  /// The provider could not tell which language the text is in.
  case unableToIdentifyLanguage
  /// Anything else, with a message for the person using the host.
  case failed(String)

  /// The message the host shows.
  public var message: String {
    switch self {
    case .nothingToTranslate: "nothing to translate"
    case .unsupportedSourceLanguage(let tag): "unsupported source language '\(tag)'"
    case .unsupportedTargetLanguage(let tag): "unsupported target language '\(tag)'"
    case .unsupportedLanguagePairing(let source, let target): "unsupported language pairing '\(source)' → '\(target)'"
    case .unableToIdentifyLanguage: "unable to identify the language"
    case .failed(let message): message
    }
  }
}
