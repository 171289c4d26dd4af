/// A translation direction a provider knows, and whether it is ready.
public struct LanguagePair: Hashable, Sendable {
  /// Availability of a pair, as Apple's `LanguageAvailability.Status`.
  public enum Status: Hashable, Sendable {
    /// Ready to translate now.
    case installed
    /// Possible once something is installed; say what in `note`.
    case supported
    /// Not possible with this provider.
    case unsupported
  }

  /// The BCP-47 tag of the source language.
  public var source: String
  /// The BCP-47 tag of the target language.
  public var target: String
  /// Whether the pair is ready.
  public var status: Status
  /// What to do to make a `supported` pair ready, for example which package to install.
  public var note: String

  public init(source: String, target: String, status: Status = .installed, note: String = "") {
    self.source = source
    self.target = target
    self.status = status
    self.note = note
  }
}
