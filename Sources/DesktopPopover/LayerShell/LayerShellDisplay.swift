import CWaylandLayerShell
import System

/// A connection to a Wayland compositor that offers wlroots' layer shell
/// (`zwlr_layer_shell_v1`: sway and the other wlroots compositors, KWin),
/// for the popover's layer surface (`Sources/CWaylandLayerShell`). The only
/// file that holds the C library's pointers.
///
/// One connection per popover, beside GTK's if GTK runs: the surface, its
/// keyboard and its pointer are this connection's alone.
final class LayerShellDisplay {
  /// What the compositor said, in order.
  enum Event: Equatable {
    /// The surface may be drawn at this size (0: ours to choose).
    case configured(width: Int, height: Int)
    /// The compositor will not show the surface any more.
    case closed
    case focusIn, focusOut
    /// A key pressed: its keysym, the text it types (may be empty), the
    /// modifiers held, its keycode, and whether the keymap says it repeats.
    case key(keysym: UInt32, text: String, modifiers: Modifiers, keycode: UInt32, repeats: Bool)
    /// A key released.
    case keyReleased(keycode: UInt32)
    /// A pointer button pressed at `x`, `y` in surface pixels (logical).
    case button(x: Double, y: Double, button: UInt32)
    /// A pointer button pressed outside the popover (on the catcher over the rest of the output).
    case outside
    /// A finger down at `x`, `y` of the popover (`inside`), or anywhere outside it.
    case touchDown(id: Int32, x: Double, y: Double, inside: Bool)
    case touchUp(id: Int32)
    /// The compositor took the touches (a gesture of its own).
    case touchCancel
    /// The surface's output wants frames at this buffer scale now.
    case scale(Int)
    /// A buffer is free again, after `hasFreeBuffer` said none was.
    case bufferFree
  }

  struct Modifiers: OptionSet, Equatable {
    let rawValue: UInt32
    static let shift = Modifiers(rawValue: UInt32(TH_LAYER_MODIFIER_SHIFT))
    static let control = Modifiers(rawValue: UInt32(TH_LAYER_MODIFIER_CONTROL))
    static let alt = Modifiers(rawValue: UInt32(TH_LAYER_MODIFIER_ALT))
  }

  /// An output: its name (sway's, e.g. `HEADLESS-1`) and size in logical pixels.
  struct Output: Equatable {
    var name: String
    var width: Int
    var height: Int
  }

  private let display: OpaquePointer
  private var surface: OpaquePointer?

  /// The compositor of `environment`'s `WAYLAND_DISPLAY`, when it offers the
  /// layer shell. Nil (with the reason in `whyNot`) without a Wayland
  /// display, when GTK is asked for X11 (`GDK_BACKEND=x11`), or when the
  /// compositor offers no layer shell (GNOME's); and when the person
  /// asked for the window (`TRANSLATION_HOST_LAYER_SHELL=0`).
  init?(environment: [String: String], whyNot: inout String) {
    if environment["TRANSLATION_HOST_LAYER_SHELL"] == "0" {
      whyNot = "TRANSLATION_HOST_LAYER_SHELL is 0"
      return nil
    }
    guard let name = environment["WAYLAND_DISPLAY"], !name.isEmpty else {
      whyNot = "WAYLAND_DISPLAY is not set"
      return nil
    }
    if let backend = environment["GDK_BACKEND"], !backend.isEmpty, !backend.hasPrefix("wayland") {
      whyNot = "GDK_BACKEND is '\(backend)'"
      return nil
    }
    var error = [CChar](repeating: 0, count: 256)
    guard let display = th_layer_display_connect(name, &error, error.count) else {
      whyNot = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      return nil
    }
    self.display = display
  }

  deinit {
    if let surface { th_layer_surface_destroy(surface) }
    th_layer_display_disconnect(display)
  }

  /// The version of `zwlr_layer_shell_v1` in use (4 takes the keyboard on demand).
  var shellVersion: Int { Int(th_layer_display_shell_version(display)) }

  /// The descriptor to wait on for events.
  var descriptor: FileDescriptor { FileDescriptor(rawValue: th_layer_display_fd(display)) }

  /// Whether the seat has a keyboard now.
  var hasKeyboard: Bool { th_layer_display_has_keyboard(display) }

  /// How keys repeat, as the compositor said: a fresh `KeyRepeat`.
  var keyRepeat: KeyRepeat {
    var rate: Int32 = 0
    var delay: Int32 = 0
    th_layer_display_repeat_info(display, &rate, &delay)
    return KeyRepeat(rate: Int(rate), delay: Int(delay))
  }

  var outputs: [Output] {
    (0..<th_layer_display_output_count(display)).compactMap { index in
      var output = th_layer_output()
      guard th_layer_display_output(display, index, &output) else { return nil }
      let name = withUnsafeBytes(of: output.name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      return Output(name: name, width: Int(output.width), height: Int(output.height))
    }
  }

  /// Reads and handles what the compositor sent.
  /// - Returns: the events, in order.
  /// - Throws: `DesktopPopoverError.layerSurfaceFailed` when the connection failed.
  func dispatch() throws(DesktopPopoverError) -> [Event] {
    let working = th_layer_display_dispatch(display)
    let events = takeEvents()
    guard working else { throw .layerSurfaceFailed(String(cString: th_layer_display_error(display))) }
    return events
  }

  /// Waits until the compositor has handled every request sent.
  func roundTrip() throws(DesktopPopoverError) -> [Event] {
    let working = th_layer_display_roundtrip(display)
    let events = takeEvents()
    guard working else { throw .layerSurfaceFailed(String(cString: th_layer_display_error(display))) }
    return events
  }

  private func takeEvents() -> [Event] {
    var events: [Event] = []
    var event = th_layer_event()
    while th_layer_display_next_event(display, &event) {
      switch event.kind {
      case TH_LAYER_EVENT_CONFIGURED: events.append(.configured(width: Int(event.width), height: Int(event.height)))
      case TH_LAYER_EVENT_CLOSED: events.append(.closed)
      case TH_LAYER_EVENT_FOCUS_IN: events.append(.focusIn)
      case TH_LAYER_EVENT_FOCUS_OUT: events.append(.focusOut)
      case TH_LAYER_EVENT_KEY:
        let text = withUnsafeBytes(of: event.text) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
        events.append(
          .key(
            keysym: event.keysym, text: text, modifiers: Modifiers(rawValue: event.modifiers), keycode: event.keycode,
            repeats: event.repeats))
      case TH_LAYER_EVENT_KEY_RELEASE: events.append(.keyReleased(keycode: event.keycode))
      case TH_LAYER_EVENT_BUTTON: events.append(.button(x: event.x, y: event.y, button: event.button))
      case TH_LAYER_EVENT_OUTSIDE: events.append(.outside)
      case TH_LAYER_EVENT_TOUCH_DOWN:
        events.append(.touchDown(id: event.touch_id, x: event.x, y: event.y, inside: event.inside))
      case TH_LAYER_EVENT_TOUCH_UP: events.append(.touchUp(id: event.touch_id))
      case TH_LAYER_EVENT_TOUCH_CANCEL: events.append(.touchCancel)
      case TH_LAYER_EVENT_SCALE: events.append(.scale(Int(event.scale)))
      case TH_LAYER_EVENT_BUFFER_FREE: events.append(.bufferFree)
      default: break
      }
    }
    return events
  }

  // MARK: The surface

  /// Creates the surface (one at a time) on output `outputIndex` (nil: the compositor's choice).
  func createSurface(outputIndex: Int?, namespace: String) throws(DesktopPopoverError) {
    precondition(surface == nil, "one layer surface at a time")
    guard let made = th_layer_surface_create(display, Int32(outputIndex ?? -1), namespace) else {
      throw .layerSurfaceFailed("the compositor's layer shell refused a second surface")
    }
    surface = made
  }

  func destroySurface() {
    if let surface { th_layer_surface_destroy(surface) }
    surface = nil
  }

  var isConfigured: Bool { surface.map { th_layer_surface_is_configured($0) } ?? false }

  /// Whether a frame can be drawn now: false while the compositor reads
  /// every buffer, and then `.bufferFree` comes when one is released.
  var hasFreeBuffer: Bool { surface.map { th_layer_surface_has_free_buffer($0) } ?? false }

  /// The buffer scale frames are drawn at (1, or 2 on a HiDPI output).
  var scale: Int { surface.map { Int(th_layer_surface_scale($0)) } ?? 1 }

  /// Puts the surface's top-left corner at `x`, `y` of its output, `width` × `height` large, from the next frame.
  func place(x: Int, y: Int, width: Int, height: Int) {
    guard let surface else { return }
    th_layer_surface_place(surface, Int32(clamping: x), Int32(clamping: y), Int32(clamping: width), Int32(clamping: height))
  }

  /// Draws a frame of `width` × `height` logical pixels with `draw` (given
  /// the pixels, ARGB32 premultiplied, cleared, the row length in bytes and
  /// the scale: the buffer is `width` × scale by `height` × scale), and shows it.
  /// - Throws: `DesktopPopoverError.layerSurfaceFailed` when shared memory cannot be had.
  func drawFrame(
    width: Int, height: Int, _ draw: (_ pixels: UnsafeMutablePointer<UInt8>, _ stride: Int, _ scale: Int) -> Void
  ) throws(DesktopPopoverError) {
    guard let surface else { return }
    var stride: Int32 = 0
    var scale: Int32 = 1
    guard
      let pixels = th_layer_surface_begin_frame(
        surface, Int32(clamping: width), Int32(clamping: height), &stride, &scale)
    else { throw .layerSurfaceFailed("no shared memory for a \(width)×\(height) frame at scale \(self.scale)") }
    draw(pixels, Int(stride), Int(scale))
    th_layer_surface_commit(surface)
  }
}
