/// How a presented popover ended.
package enum PopoverOutcome: Equatable, Sendable {
  /// The provider finished with a complete replacement for the text.
  case replaced(String)
  /// The provider finished without a replacement.
  case finished
  /// The person dismissed the popover (Esc, `q`), or closed the language picker.
  case dismissed
}
