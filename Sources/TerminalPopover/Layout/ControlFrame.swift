/// Where a control landed in the laid-out lines, for focus and scrolling.
package struct ControlFrame: Equatable, Sendable {
  package enum Kind: Equatable, Sendable { case button, textField }

  package var id: String
  package var kind: Kind
  package var isEnabled: Bool
  /// The lines the control occupies.
  package var lines: Range<Int>
}
