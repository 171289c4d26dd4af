/// Where a control landed in the laid-out lines, for focus and scrolling.
struct ControlFrame: Equatable, Sendable {
  enum Kind: Equatable, Sendable { case button, textField }

  var id: String
  var kind: Kind
  var isEnabled: Bool
  /// The lines the control occupies.
  var lines: Range<Int>
}
