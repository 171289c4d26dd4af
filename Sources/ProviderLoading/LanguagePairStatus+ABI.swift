import CTranslationProvider
import RunnerProtocol

extension LanguagePairStatus.Availability {
  /// The availability a provider reported through the C ABI; unknown values are `unsupported`.
  init(_ raw: tp_availability) {
    switch raw {
    case Int32(TP_AVAILABILITY_INSTALLED): self = .installed
    case Int32(TP_AVAILABILITY_SUPPORTED): self = .supported
    default: self = .unsupported
    }
  }
}
