import CGtk
import Presentation
import System

/// What the popover needs from X11 that GTK 4 does not offer: the pointer,
/// the window with keyboard focus and the process that owns it, the owner
/// of the PRIMARY selection, moving its own toplevel (GTK 4 cannot place
/// toplevels), and pasting with XTest key events.
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

  /// The focused window, its application's toplevel, owner and class; nil when no window has the focus.
  var focused: FocusedWindow? {
    guard let window = focusedWindow else { return nil }
    var toplevel = window
    var windowClass: String?
    var current = window
    // Up from the focused window to the first with a WM_CLASS: the
    // application's toplevel (a window manager's frame sits above it).
    for _ in 0..<16 {
      var hint = XClassHint()
      if XGetClassHint(display, current, &hint) != 0 {
        toplevel = current
        windowClass = hint.res_class.map { String(cString: $0) }
        if let name = hint.res_name { XFree(name) }
        if let name = hint.res_class { XFree(name) }
        break
      }
      guard let parent = parent(of: current), parent != XDefaultRootWindow(display) else { break }
      current = parent
    }
    return FocusedWindow(
      window: window, toplevel: toplevel, processID: processID(owning: window), windowClass: windowClass,
      origin: origin(of: toplevel))
  }

  private func parent(of window: Window) -> Window? {
    var root: Window = 0
    var parent: Window = 0
    var children: UnsafeMutablePointer<Window>?
    var count: UInt32 = 0
    guard XQueryTree(display, window, &root, &parent, &children, &count) != 0 else { return nil }
    if let children { XFree(children) }
    return parent == 0 ? nil : parent
  }

  private func origin(of window: Window) -> ScreenPoint? {
    var x: Int32 = 0
    var y: Int32 = 0
    var child: Window = 0
    guard XTranslateCoordinates(display, window, XDefaultRootWindow(display), 0, 0, &x, &y, &child) != 0 else {
      return nil
    }
    return ScreenPoint(x: Int(x), y: Int(y))
  }

  /// The process whose connection created `window`, as the X server says
  /// (X-Resource), not as the client claims (`_NET_WM_PID`); nil when the
  /// server cannot tell (a remote client, no extension).
  func processID(owning window: Window) -> Int32? {
    var spec = XResClientIdSpec(client: XID(window), mask: UInt32(XRES_CLIENT_ID_PID_MASK.rawValue))
    var count = 0
    var values: UnsafeMutablePointer<XResClientIdValue>?
    guard XResQueryClientIds(display, 1, &spec, &count, &values) == Success, let values else { return nil }
    defer { XResClientIdsDestroy(count, values) }
    for index in 0..<count {
      let pid = XResGetClientPid(values + index)
      if pid > 0 { return pid }
    }
    return nil
  }

  /// The window that owns the PRIMARY selection (the text selected last, anywhere); nil when none does.
  var primaryOwner: Window? {
    let owner = XGetSelectionOwner(display, XA_PRIMARY)
    return owner == 0 ? nil : owner
  }

  /// The window that owns the clipboard; nil when none does.
  var clipboardOwner: Window? {
    let owner = XGetSelectionOwner(display, XInternAtom(display, "CLIPBOARD", 0))
    return owner == 0 ? nil : owner
  }

  /// Whether a window of this process owns the clipboard, as the X server says.
  var ownsClipboard: Bool {
    guard let owner = clipboardOwner else { return false }
    return processID(owning: owner) == Syscalls.processID
  }

  /// The window asking, in `event`, for the contents of the clipboard or
  /// PRIMARY (a paste reading them), and its process; nil for any other
  /// event, and for a request of the formats or the time only (an
  /// application asks for those when the owner changes, without pasting).
  func selectionDataRequest(_ event: UnsafePointer<XEvent>) -> (requestor: Window, processID: Int32?)? {
    guard event.pointee.type == SelectionRequest else { return nil }
    let request = event.pointee.xselectionrequest
    let selections = [XA_PRIMARY, XInternAtom(display, "CLIPBOARD", 0)]
    let metadata = (["TARGETS", "TIMESTAMP", "SAVE_TARGETS"] as [String]).map { XInternAtom(display, $0, 0) }
    guard selections.contains(request.selection), !metadata.contains(request.target) else { return nil }
    return (request.requestor, processID(owning: request.requestor))
  }

  /// Runs `body` with the X server grabbed: no other client's request is
  /// served meanwhile, so what `body` checks cannot change before it acts.
  /// Keep `body` short (a few requests): every other client waits.
  func withServerGrabbed<Value>(_ body: () -> Value) -> Value {
    XGrabServer(display)
    defer {
      XUngrabServer(display)
      XFlush(display)
    }
    return body()
  }

  /// Whether the PRIMARY selection belongs to the application of `focused`
  /// (the same process, as the X server knows it): only then is it the
  /// text selected in the window a replacement would go into.
  func primaryBelongs(to focused: FocusedWindow) -> Bool {
    guard let owner = primaryOwner, let pid = focused.processID else { return false }
    return processID(owning: owner) == pid
  }

  /// Makes `surface`'s window a popover for the window manager, before it
  /// is mapped: a utility window (no taskbar entry, no pager), kept above
  /// the others, mapped where it belongs (position hints: a window manager
  /// would otherwise place it first, at the centre, and it would jump).
  func makePopover(_ surface: OpaquePointer, x: Int, y: Int, width: Int, height: Int) {
    let window = th_x11_surface_xid(surface)
    gdk_x11_surface_set_skip_taskbar_hint(surface, 1)
    gdk_x11_surface_set_skip_pager_hint(surface, 1)
    setAtoms(window, "_NET_WM_WINDOW_TYPE", ["_NET_WM_WINDOW_TYPE_UTILITY"])
    setAtoms(window, "_NET_WM_STATE", ["_NET_WM_STATE_ABOVE", "_NET_WM_STATE_SKIP_TASKBAR", "_NET_WM_STATE_SKIP_PAGER"])
    guard let hints = XAllocSizeHints() else { return }
    defer { XFree(hints) }
    hints.pointee.flags = USPosition | PPosition | USSize | PSize
    (hints.pointee.x, hints.pointee.y) = (Int32(x), Int32(y))
    (hints.pointee.width, hints.pointee.height) = (Int32(width), Int32(height))
    XSetWMNormalHints(display, window, hints)
    XMoveWindow(display, window, Int32(x), Int32(y))
    XFlush(display)
  }

  /// Asks the window manager to keep `surface`'s window above the others
  /// once it is mapped (EWMH: a `_NET_WM_STATE` message to the root window).
  func keepAbove(_ surface: OpaquePointer) {
    var event = XEvent()
    event.xclient.type = ClientMessage
    event.xclient.window = th_x11_surface_xid(surface)
    event.xclient.message_type = XInternAtom(display, "_NET_WM_STATE", 0)
    event.xclient.format = 32
    event.xclient.data.l.0 = 1  // _NET_WM_STATE_ADD
    event.xclient.data.l.1 = Int(XInternAtom(display, "_NET_WM_STATE_ABOVE", 0))
    event.xclient.data.l.3 = 1  // from an application
    XSendEvent(
      display, XDefaultRootWindow(display), 0, SubstructureRedirectMask | SubstructureNotifyMask, &event)
    XFlush(display)
  }

  private func setAtoms(_ window: Window, _ property: String, _ names: [String]) {
    var atoms = names.map { UInt(XInternAtom(display, $0, 0)) }
    atoms.withUnsafeMutableBytes { bytes in
      _ = XChangeProperty(
        display, window, XInternAtom(display, property, 0), XA_ATOM, 32, PropModeReplace,
        bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(names.count))
    }
  }

  /// Gives `surface`'s window the shape of `rectangles` (moved by `offset`):
  /// its bounding shape, which the X server draws (without a compositor,
  /// the only way to be transparent), or only its input shape (with one: a
  /// click on the shadow goes to the window beneath).
  func setShape(_ surface: OpaquePointer, _ rectangles: [ScreenRect], offset: Int, bounding: Bool) {
    var shape = rectangles.map {
      XRectangle(
        x: Int16(clamping: $0.x), y: Int16(clamping: $0.y), width: UInt16(clamping: $0.width),
        height: UInt16(clamping: $0.height))
    }
    let window = th_x11_surface_xid(surface)
    if bounding {
      XShapeCombineRectangles(
        display, window, ShapeBounding, Int32(offset), Int32(offset), &shape, Int32(shape.count), ShapeSet, YXBanded)
    }
    XShapeCombineRectangles(
      display, window, ShapeInput, Int32(offset), Int32(offset), &shape, Int32(shape.count), ShapeSet, YXBanded)
    XFlush(display)
  }

  /// Moves the toplevel of `surface` so its top-left corner is at `x`, `y`.
  func move(_ surface: OpaquePointer, x: Int, y: Int) {
    XMoveWindow(display, th_x11_surface_xid(surface), Int32(x), Int32(y))
    XFlush(display)
  }

  /// Gives `window` the keyboard focus and presses the paste keys in it
  /// (Ctrl+V; Shift+Insert in a terminal, where Ctrl+V is literal-next),
  /// only if it then has the focus: never into another window.
  /// - Returns: whether the keys were sent.
  func paste(into window: Window, terminal: Bool) -> Bool {
    XSetInputFocus(display, window, RevertToParent, UInt(CurrentTime))
    XSync(display, 0)
    guard focusedWindow == window else { return false }
    let modifier = XKeysymToKeycode(display, KeySym(terminal ? XK_Shift_L : XK_Control_L))
    let key = XKeysymToKeycode(display, KeySym(terminal ? XK_Insert : XK_v))
    guard modifier != 0, key != 0 else { return false }
    for (code, isPress) in [(modifier, true), (key, true), (key, false), (modifier, false)] {
      XTestFakeKeyEvent(display, UInt32(code), isPress ? 1 : 0, UInt(CurrentTime))
    }
    XFlush(display)
    return true
  }
}
