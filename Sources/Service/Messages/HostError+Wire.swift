import RunnerProtocol
import System

/// A failure as it travels from the service to its clients: kind, message
/// and remedy, so that the client reports exactly what the direct path would.
extension HostError: WireCodable {
  package func encode(to w: inout WireWriter) {
    switch kind {
    case .failure: w.tag(1)
    case .usage: w.tag(2)
    case .invalidInput: w.tag(3)
    case .nothingToTranslate: w.tag(4)
    case .unsupportedSourceLanguage: w.tag(5)
    case .unsupportedTargetLanguage: w.tag(6)
    case .unsupportedLanguagePairing: w.tag(7)
    case .unableToIdentifyLanguage: w.tag(8)
    case .noSuchControl: w.tag(9)
    case .providerUnavailable: w.tag(10)
    case .providerFailed: w.tag(11)
    case .deadlineExceeded: w.tag(12)
    case .serviceFailed: w.tag(13)
    case .interrupted(let signal):
      w.tag(14)
      w.integer(signal)
    case .notInstalled: w.tag(15)
    }
    w.string(message)
    switch remedy {
    case nil: w.tag(0)
    case .longerDeadline?: w.tag(1)
    case .nameSourceLanguage(let suggested)?:
      w.tag(2)
      w.optionalString(suggested)
    case .bypassService?: w.tag(3)
    }
  }

  package init(from r: inout WireReader) throws(ProtocolError) {
    let kind: Kind
    switch try r.tag() {
    case 1: kind = .failure
    case 2: kind = .usage
    case 3: kind = .invalidInput
    case 4: kind = .nothingToTranslate
    case 5: kind = .unsupportedSourceLanguage
    case 6: kind = .unsupportedTargetLanguage
    case 7: kind = .unsupportedLanguagePairing
    case 8: kind = .unableToIdentifyLanguage
    case 9: kind = .noSuchControl
    case 10: kind = .providerUnavailable
    case 11: kind = .providerFailed
    case 12: kind = .deadlineExceeded
    case 13: kind = .serviceFailed
    case 14: kind = .interrupted(signal: try r.integer())
    case 15: kind = .notInstalled
    case let tag: throw .malformed("unknown failure kind \(tag)")
    }
    let message = try r.string()
    let remedy: Remedy?
    switch try r.tag() {
    case 0: remedy = nil
    case 1: remedy = .longerDeadline
    case 2: remedy = .nameSourceLanguage(suggested: try r.optionalString())
    case 3: remedy = .bypassService
    case let tag: throw .malformed("unknown remedy \(tag)")
    }
    self.init(kind, message, remedy: remedy)
  }
}
