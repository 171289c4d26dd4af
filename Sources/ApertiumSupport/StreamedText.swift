/// What the source of an open batch (`ApertiumEngine.translate(from:to:wake:next:deliver:)`) gives when asked.
public enum StreamedText: Sendable, Equatable {
  /// A text to translate, with the index its translation is delivered with.
  case text(index: Int, String)
  /// No text now; more may come (the wake descriptor says when).
  case later
  /// No more texts in this call.
  case end
}
