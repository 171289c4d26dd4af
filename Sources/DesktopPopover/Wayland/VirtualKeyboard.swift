import CVirtualKeyboard

/// The compositor's virtual keyboard (`zwp_virtual_keyboard_v1`, which
/// wlroots compositors such as sway offer), spoken by this process over a
/// Wayland connection of its own (`Sources/CVirtualKeyboard`): a keyboard
/// added to the seat for as long as this value lives, which types a
/// `TypingPlan` into the window with the keyboard focus. Which window that
/// is, the caller checks (`WaylandReplace`): the protocol cannot say.
final class VirtualKeyboard {
  /// An application binds a keyboard only once the compositor has announced
  /// it; when the seat had none before this one, keys sent sooner than this
  /// after adding it may reach nobody (a busy application reads its events late).
  static let announcementDelay = Duration.milliseconds(300)

  /// The keymap the keyboard has until it types: a US layout, what an
  /// application gets if the compositor makes this keyboard the seat's
  /// current one (when a keyboard that typed since goes away). A keyboard
  /// without a keymap would leave applications without one.
  static let restingKeymap = """
    xkb_keymap {
    xkb_keycodes { include "evdev+aliases(qwerty)" };
    xkb_types { include "complete" };
    xkb_compatibility { include "complete" };
    xkb_symbols { include "pc+us+inet(evdev)" };
    };

    """

  private let handle: OpaquePointer
  /// Whether the seat had a keyboard before this one (applications hold one already).
  let seatHadKeyboard: Bool
  /// When this keyboard was added to the seat.
  let added = ContinuousClock.now

  /// Adds a keyboard to the first seat of the compositor `environment` names (`WAYLAND_DISPLAY`).
  init(environment: [String: String]) throws(DesktopPopoverError) {
    guard let name = Self.displayPath(environment: environment) else {
      throw .cannotType("no Wayland display (WAYLAND_DISPLAY is not set)")
    }
    var status = TH_VIRTUAL_KEYBOARD_OK
    guard let handle = th_virtual_keyboard_open(name, &status) else { throw .cannotType(Self.reason(status)) }
    self.handle = handle
    seatHadKeyboard = th_virtual_keyboard_seat_had_keyboard(handle) != 0
    try setKeymap(Self.restingKeymap)
  }

  deinit { th_virtual_keyboard_close(handle) }

  /// Gives the compositor `keymap` (`TypingPlan.Part.keymap`).
  func setKeymap(_ keymap: String) throws(DesktopPopoverError) {
    var keymap = keymap
    let status = keymap.withUTF8 { th_virtual_keyboard_set_keymap(handle, $0.baseAddress, $0.count) }
    guard status == TH_VIRTUAL_KEYBOARD_OK else { throw .cannotType(Self.reason(status)) }
  }

  /// Presses and releases `key` (an evdev code of the current keymap).
  func tap(_ key: UInt32) throws(DesktopPopoverError) {
    let status = th_virtual_keyboard_tap(handle, key)
    guard status == TH_VIRTUAL_KEYBOARD_OK else { throw .cannotType(Self.reason(status)) }
  }

  /// `WAYLAND_DISPLAY` as libwayland reads it, made absolute with
  /// `environment`'s `XDG_RUNTIME_DIR` (this process's own may differ).
  static func displayPath(environment: [String: String]) -> String? {
    guard let display = environment["WAYLAND_DISPLAY"], !display.isEmpty else { return nil }
    if display.hasPrefix("/") { return display }
    guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return display }
    return runtime + "/" + display
  }

  private static func reason(_ status: th_virtual_keyboard_status) -> String {
    switch status {
    case TH_VIRTUAL_KEYBOARD_NO_DISPLAY: "cannot connect to the Wayland display to type the translation"
    case TH_VIRTUAL_KEYBOARD_UNSUPPORTED: "the compositor offers no virtual keyboard (zwp_virtual_keyboard_v1)"
    case TH_VIRTUAL_KEYBOARD_NO_SEAT: "the compositor has no seat to type on"
    case TH_VIRTUAL_KEYBOARD_REFUSED: "the compositor refused the virtual keyboard"
    case TH_VIRTUAL_KEYBOARD_KEYMAP_FILE: "cannot make the keymap's file (memfd_create)"
    default: "the connection to the Wayland compositor broke while typing"
    }
  }
}
