/// What the layout needs to know besides the tree: the person's focus and
/// caret, the spinner's frame, and which characters the terminal can show.
struct LayoutOptions: Hashable, Sendable {
  /// The id of the focused control.
  var focus: String?
  /// Characters before the caret in the focused text field.
  var caret: Int
  /// Advances once per tick while something is in progress.
  var spinnerFrame: Int
  /// Whether to draw Unicode symbols (false: ASCII stand-ins).
  var unicode: Bool

  init(focus: String? = nil, caret: Int = 0, spinnerFrame: Int = 0, unicode: Bool = true) {
    self.focus = focus
    self.caret = caret
    self.spinnerFrame = spinnerFrame
    self.unicode = unicode
  }
}
