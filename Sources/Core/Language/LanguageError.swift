import System

/// The source language could not be determined.
package enum LanguageError: HostErrorConvertible, Equatable {
  /// Detection found no language, or none it stands by.
  case unableToIdentifyLanguage(candidates: [LanguageDetection.Candidate])

  package var description: String {
    switch self {
    case .unableToIdentifyLanguage(let candidates) where candidates.isEmpty:
      "unable to identify the language of the text"
    case .unableToIdentifyLanguage(let candidates):
      "unable to identify the language of the text reliably (candidates: "
        + candidates.map { "\($0.tag) \($0.name) \($0.confidence)%" }.joined(separator: ", ") + ")"
    }
  }

  package var hostError: HostError {
    switch self {
    case .unableToIdentifyLanguage(let candidates):
      HostError(.unableToIdentifyLanguage, description, remedy: .nameSourceLanguage(suggested: candidates.first?.tag))
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
