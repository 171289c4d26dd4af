/// What the layout needs to know besides the tree: the person's focus and
/// caret, the spinner's frame, and which characters the terminal can show.
package struct LayoutOptions: Equatable, Sendable {
  /// The id of the focused control.
  package var focus: String?
  /// Characters before the caret in the focused text field.
  package var caret: Int
  /// Advances once per tick while something is in progress.
  package var spinnerFrame: Int
  /// Whether to draw Unicode symbols (false: ASCII stand-ins).
  package var unicode: Bool

  package init(focus: String? = nil, caret: Int = 0, spinnerFrame: Int = 0, unicode: Bool = true) {
    self.focus = focus
    self.caret = caret
    self.spinnerFrame = spinnerFrame
    self.unicode = unicode
  }
}
