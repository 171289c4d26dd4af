import CGtk
import Presentation

/// What the popover needs from X11 that GTK 4 does not offer: the pointer,
/// the window with keyboard focus, moving its own toplevel (GTK 4 cannot
/// place toplevels), and pasting with XTest key events.
final class X11Session {
  private let display: OpaquePointer

  /// The X11 connection GTK opened, or nil on another backend (Wayland).
  init?(_ gdkDisplay: OpaquePointer) {
    guard th_is_x11_display(gdkDisplay) != 0, let display = th_x11_display(gdkDisplay) else { return nil }
    self.display = display
  }

  /// Where the pointer is on the screen.
  var pointer: ScreenPoint? {
    var root: Window = 0
    var child: Window = 0
    var rootX: Int32 = 0
    var rootY: Int32 = 0
    var windowX: Int32 = 0
    var windowY: Int32 = 0
    var mask: UInt32 = 0
    let found = XQueryPointer(
      display, XDefaultRootWindow(display), &root, &child, &rootX, &rootY, &windowX, &windowY, &mask)
    return found != 0 ? ScreenPoint(x: Int(rootX), y: Int(rootY)) : nil
  }

  /// The window with keyboard focus; nil when focus follows the pointer or is nowhere.
  var focusedWindow: Window? {
    var window: Window = 0
    var revert: Int32 = 0
    XGetInputFocus(display, &window, &revert)
    // None (0) and PointerRoot (1) name no window.
    return window > 1 ? window : nil
  }

  /// Moves the toplevel of `surface` so its top-left corner is at `x`, `y`.
  func move(_ surface: OpaquePointer, x: Int, y: Int) {
    XMoveWindow(display, th_x11_surface_xid(surface), Int32(x), Int32(y))
    XFlush(display)
  }

  /// Gives `window` the keyboard focus and presses Ctrl+V in it, only if
  /// it then has the focus: never into another window.
  /// - Returns: whether the keys were sent.
  func paste(into window: Window) -> Bool {
    XSetInputFocus(display, window, RevertToParent, UInt(CurrentTime))
    XSync(display, 0)
    guard focusedWindow == window else { return false }
    let control = XKeysymToKeycode(display, KeySym(XK_Control_L))
    let v = XKeysymToKeycode(display, KeySym(XK_v))
    guard control != 0, v != 0 else { return false }
    for (code, isPress) in [(control, true), (v, true), (v, false), (control, false)] {
      XTestFakeKeyEvent(display, UInt32(code), isPress ? 1 : 0, UInt(CurrentTime))
    }
    XFlush(display)
    return true
  }
}
