/// The language of the text as the popover starts.
enum SourceLanguage: Equatable, Sendable {
  /// Given or detected (nil: the provider does not need one).
  case known(String?)
  /// Not detected: the person picks one of `options` first.
  case ask([LanguageOption])
}
