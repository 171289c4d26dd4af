/// What the person asked of the content: a press, an edit, Enter in a
/// field. The popover controller queues them while a call is in progress.
package enum PopoverAction: Equatable, Sendable {
  /// Presses the button `id`.
  case press(String)
  /// Sets the text of field `id`.
  case edit(String, text: String)
  /// Enter in field `id`.
  case submit(String)
}
