import CTranslationProvider

/// A language pair a provider reported, with its availability.
package struct LanguagePairStatus: Codable, Equatable, Sendable {
  /// As Apple's `LanguageAvailability.Status`.
  package enum Availability: String, Codable, Sendable {
    case installed, supported, unsupported

    init(_ raw: tp_availability) {
      switch raw {
      case Int32(TP_AVAILABILITY_INSTALLED): self = .installed
      case Int32(TP_AVAILABILITY_SUPPORTED): self = .supported
      default: self = .unsupported
      }
    }
  }

  package var source: String
  package var target: String
  package var availability: Availability
  package var note: String
}
