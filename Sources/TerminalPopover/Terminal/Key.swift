/// A key the person pressed, decoded from the terminal.
enum Key: Equatable, Sendable {
  case character(Character)
  case enter, escape, tab, backTab
  case up, down, left, right, home, end, pageUp, pageDown
  case backspace, delete
  /// Ctrl-C (the terminal is in raw mode, so it arrives as a key).
  case interrupt
  /// The terminal changed size.
  case resize
}
