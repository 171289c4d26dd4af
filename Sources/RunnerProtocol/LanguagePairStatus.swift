/// A language pair a provider reported, with its availability.
package struct LanguagePairStatus: Codable, Equatable, Sendable {
  /// As Apple's `LanguageAvailability.Status`.
  package enum Availability: String, Codable, Sendable {
    case installed, supported, unsupported
  }

  package var source: String
  package var target: String
  package var availability: Availability
  package var note: String

  package init(source: String, target: String, availability: Availability, note: String) {
    self.source = source
    self.target = target
    self.availability = availability
    self.note = note
  }
}
