extension LanguageAvailability {
  /// Whether a language pair can be translated, as Apple's.
  public enum Status: Hashable, Sendable {
    /// The provider translates the pair now.
    case installed
    /// The provider translates the pair once something is installed
    /// (the `notInstalled` error of a session names it).
    case supported
    /// The provider does not translate the pair, or the two are one language.
    case unsupported
  }
}
