/// The text `run --selection` translates, and where it came from: which
/// decides whether, and how, a replacement may go back.
struct SelectedText {
  enum Origin {
    /// The focused field, through AT-SPI: replaced in place when editable,
    /// pasted into when a terminal, never changed when read-only.
    case accessible(AccessibleText)
    /// The PRIMARY selection, owned by the application of the focused
    /// window (X11): a replacement is pasted into that window.
    case primary(FocusedWindow)
    /// The PRIMARY selection where its owner cannot be checked (Wayland):
    /// a replacement is left on the clipboard.
    case uncheckedPrimary
    /// The clipboard, when nothing selected could be read: its text may
    /// come from anywhere, so it is translated, never replaced.
    case clipboard
  }

  var text: String
  var origin: Origin

  /// Whether the text is the clipboard's (translated, never replaced: Copy is offered instead).
  var isFromClipboard: Bool {
    if case .clipboard = origin { return true }
    return false
  }

  /// Whether a replacement can go back where the text came from.
  var allowsReplacement: Bool {
    switch origin {
    case .accessible(let field): field.kind != .readOnly
    case .primary, .uncheckedPrimary: true
    case .clipboard: false
    }
  }
}
