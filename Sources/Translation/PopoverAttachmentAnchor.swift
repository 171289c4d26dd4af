/// Where the translation popover attaches on the app's terminal: the
/// counterpart of SwiftUI's `PopoverAttachmentAnchor`.
public enum PopoverAttachmentAnchor: Equatable, Sendable {
  /// The whole terminal: the popover is centred, without an arrow.
  case screen
  /// A terminal cell, counted from 1, as a cursor position report
  /// (`ESC [ 6 n`) gives it: the popover's arrow points at it.
  case cell(row: Int, column: Int)
}
