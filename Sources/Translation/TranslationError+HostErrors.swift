import Core
import System

extension TranslationError {
  /// What an error of the host means to an app: a `TranslationError` of the
  /// closest of Apple's kinds, with the host's one-line message as its
  /// reason and what would help in an app's terms. `TranslationError` and
  /// `CancellationError` pass unchanged; an interruption becomes a `CancellationError`.
  static func translating(_ error: any Error) -> any Error {
    if error is TranslationError || error is CancellationError { return error }
    let failure = HostError(error)
    let reason = failure.message + advice(failure.remedy)
    switch failure.kind {
    case .nothingToTranslate: return nothingToTranslate.because(reason)
    case .unsupportedSourceLanguage: return unsupportedSourceLanguage.because(reason)
    case .unsupportedTargetLanguage: return unsupportedTargetLanguage.because(reason)
    case .unsupportedLanguagePairing: return unsupportedLanguagePairing.because(reason)
    case .unableToIdentifyLanguage: return unableToIdentifyLanguage.because(reason)
    case .notInstalled: return notInstalled.because(reason)
    case .interrupted: return CancellationError()
    case .failure, .usage, .invalidInput, .noSuchControl, .providerUnavailable, .providerFailed, .deadlineExceeded,
      .serviceFailed:
      return internalError.because(reason)
    }
  }

  /// What would help, in an app's words: an app has no `--from` or `--timeout`.
  private static func advice(_ remedy: HostError.Remedy?) -> String {
    switch remedy {
    case .nameSourceLanguage?:
      "; give at least \(LanguageDetector.minimumLetterBytes) characters of text, or name the source language"
    case .longerDeadline?, .bypassService?, nil: ""
    }
  }
}
