import TranslationHostCore

extension TranslationError {
  /// What an error of the host means to an app: a `TranslationError` of the
  /// closest of Apple's kinds, with the host's one-line message as its
  /// reason. `TranslationError` and `CancellationError` pass unchanged.
  static func translating(_ error: any Error) -> any Error {
    switch error {
    case is TranslationError, is CancellationError:
      return error
    case .serviceFailed(let error) as RunnerError:
      return translating(error)
    case let error as RunnerError:
      guard case .providerFailed(_, let status?, _) = error else { return internalError.because(error.description) }
      return kind(of: status).map { TranslationError($0, reason: error.description) } ?? internalError.because(error.description)
    case .unableToIdentifyLanguage(let candidates) as LanguageError:
      // LanguageError's own text names the CLI's --from.
      let found = candidates.map { "\($0.tag) \($0.name) \($0.confidence)%" }.joined(separator: ", ")
      return unableToIdentifyLanguage.because(
        "the language of the text could not be identified reliably"
          + (found.isEmpty ? "" : " (candidates: \(found))")
          + "; give at least \(LanguageDetector.minimumLetterBytes) characters of text, or name the source language")
    case let error as ServiceError:
      return internalError.because(reason(error))
    case let error as CustomStringConvertible:
      // RegistryError (no provider, not eligible), settings and sandbox policy errors.
      return internalError.because(error.description)
    default:
      return internalError.because(String(describing: error))
    }
  }

  /// What went wrong with the resident service, in an app's words: the
  /// CLI's own text names its options (`--no-service`, `--timeout`).
  private static func reason(_ error: ServiceError) -> String {
    switch error {
    case .connectionLost(let path, let retried):
      "the translation-host service on \(path) "
        + (retried ? "went away during the request and again after reconnecting" : "went away while a scene was open")
        + "; check it with 'systemctl --user status translation-host'"
    case .noAnswer(let path, let seconds):
      "the translation-host service on \(path) did not answer within \(Int(seconds.rounded(.up))) s; "
        + "check it with 'systemctl --user status translation-host'"
    case .busy(let provider, let seconds):
      "every runner of provider '\(provider)' of the translation-host service stayed busy for \(Int(seconds.rounded(.up))) s; try again"
    default:
      error.description
    }
  }

  /// Apple's kind for a status a provider returned, if it has one.
  static func kind(of status: ProviderStatus) -> Kind? {
    switch status {
    case .nothingToTranslate: .nothingToTranslate
    case .unsupportedSourceLanguage: .unsupportedSourceLanguage
    case .unsupportedTargetLanguage: .unsupportedTargetLanguage
    case .unsupportedLanguagePairing: .unsupportedLanguagePairing
    case .unableToIdentifyLanguage: .unableToIdentifyLanguage
    case .ok, .failed, .invalidArgument, .notFound: nil
    }
  }
}
