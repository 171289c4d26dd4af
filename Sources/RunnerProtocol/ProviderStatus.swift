/// A status a provider returned (`tp_status` in the C ABI), with the name of Apple's matching error.
package enum ProviderStatus: Int32, Codable, Sendable, CustomStringConvertible {
  case ok = 0
  case failed = 1
  case invalidArgument = 2
  case notFound = 3
  case nothingToTranslate = 4
  case unsupportedSourceLanguage = 5
  case unsupportedTargetLanguage = 6
  case unsupportedLanguagePairing = 7
  case unableToIdentifyLanguage = 8

  /// The status for a raw value; unknown values are `failed`.
  package init(_ raw: Int32) { self = ProviderStatus(rawValue: raw) ?? .failed }

  package var description: String {
    switch self {
    case .ok: "success"
    case .failed: "failed"
    case .invalidArgument: "invalid argument"
    case .notFound: "not found"
    case .nothingToTranslate: "nothing to translate"
    case .unsupportedSourceLanguage: "unsupported source language"
    case .unsupportedTargetLanguage: "unsupported target language"
    case .unsupportedLanguagePairing: "unsupported language pairing"
    case .unableToIdentifyLanguage: "unable to identify language"
    }
  }
}
