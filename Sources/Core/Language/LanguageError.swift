import System

/// The source language could not be determined.
package enum LanguageError: HostErrorConvertible, Equatable {
  /// Detection found no language, or none it stands by.
  case unableToIdentifyLanguage(candidates: [LanguageDetection.Candidate])
  /// No target was given, and no preferred language other than `source` is set.
  case noTargetLanguage(source: String)

  package var description: String {
    switch self {
    case .unableToIdentifyLanguage(let candidates) where candidates.isEmpty:
      "unable to identify the language of the text"
    case .unableToIdentifyLanguage(let candidates):
      "unable to identify the language of the text reliably (candidates: "
        + candidates.map { "\($0.tag) \($0.name) \($0.confidence)%" }.joined(separator: ", ") + ")"
    case .noTargetLanguage(let source):
      "no target language was given, and no preferred language other than '\(source)' is set in LANGUAGE, LC_ALL, LC_MESSAGES or LANG; name the target language, such as 'es'"
    }
  }

  package var hostError: HostError {
    switch self {
    case .unableToIdentifyLanguage(let candidates):
      HostError(.unableToIdentifyLanguage, description, remedy: .nameSourceLanguage(suggested: candidates.first?.tag))
    case .noTargetLanguage: HostError(.usage, description)
    }
  }
}

extension LanguageDetector {
  /// The language of `text` when detection is reliable.
  /// - Throws: `LanguageError.unableToIdentifyLanguage` with the candidates otherwise.
  package static func sourceLanguage(of text: String) throws(LanguageError) -> String {
    let detection = detect(text)
    guard detection.reliable, let tag = detection.tag else {
      throw .unableToIdentifyLanguage(candidates: detection.candidates)
    }
    return tag
  }
}
