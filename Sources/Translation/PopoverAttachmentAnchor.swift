/// Where the translation popover attaches on the app's terminal: the
/// counterpart of SwiftUI's `PopoverAttachmentAnchor`.
public enum PopoverAttachmentAnchor: Equatable, Sendable {
  /// On a terminal, the whole terminal: the popover is centred, without an
  /// arrow. On the desktop, the pointer: the popover's arrow points at it.
  case screen
  /// A terminal cell, counted from 1, as a cursor position report
  /// (`ESC [ 6 n`) gives it: the popover's arrow points at it. On the
  /// desktop, the pointer, as `.screen`.
  case cell(row: Int, column: Int)
  /// A point on the desktop's screen, in pixels from its top-left corner
  /// (X11; Wayland compositors place popovers themselves). On a terminal,
  /// the whole terminal, as `.screen`.
  case point(x: Int, y: Int)
}
