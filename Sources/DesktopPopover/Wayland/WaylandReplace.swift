/// Replace on Wayland without the clipboard: the translation is typed over
/// the selection in the window the text was selected in (typing over a
/// selection replaces it; select-all is never pressed), through the
/// compositor's virtual keyboard (`VirtualKeyboard`), and only while sway
/// says that window, shown by the same process, has the keyboard focus.
/// Where that cannot be confirmed (not sway, the window gone, another one
/// focused) nothing is typed and the caller leaves the translation on the
/// clipboard, with the reason.
///
/// The window the text came from is the one that had the focus when the
/// popover was asked for (the shortcut's press): with the Wayland PRIMARY
/// selection, its owner cannot be asked. KWin and Mutter offer no virtual
/// keyboard to ordinary clients, so there this is never used.
struct WaylandReplace {
  /// How long the focus may take to come back once the popover is hidden.
  static let focusPatience = Duration.seconds(1)
  /// Keys typed between two checks that the target still has the focus.
  static let keysPerFocusCheck = 32

  let sway: SwayIPC
  let target: SwayIPC.Window
  /// The virtual keyboard, added when the popover opens: on a seat without
  /// a keyboard (a touch screen, a headless session) applications have bound
  /// it by the time a person presses Replace. Else why there is none.
  private let keyboard: Result<VirtualKeyboard, DesktopPopoverError>

  /// The window focused now, on sway; nil elsewhere, or when none has the focus.
  init?(environment: [String: String]) {
    guard let sway = SwayIPC(environment: environment), let focused = sway.focusedWindow(), focused.pid != nil else {
      return nil
    }
    self.sway = sway
    target = focused
    keyboard = Result { () throws(DesktopPopoverError) in try VirtualKeyboard(environment: environment) }
  }

  /// What people call the target window in a message.
  var targetName: String { target.appID ?? "the window the text was selected in" }

  /// Types `translation` into the target window once it has the focus
  /// again (the popover hidden), serving `window`'s loop meanwhile. The
  /// focus is checked again before each keymap and every
  /// `keysPerFocusCheck` keys; if it moved, typing stops.
  /// - Throws: why nothing, or not all of it, was typed.
  func type(_ translation: String, environment: [String: String], window: any PopoverSurface) throws(DesktopPopoverError) {
    let plan: TypingPlan
    do { plan = try TypingPlan(translation) } catch { throw .cannotType(error.description) }
    let deadline = ContinuousClock.Instant.after(Self.focusPatience)
    var focused = sway.focusedWindow()
    while focused != target && !deadline.hasPassed {
      window.iterate(for: .milliseconds(20))
      focused = sway.focusedWindow()
    }
    guard focused == target else { throw .focusMoved(application: targetName) }
    let keyboard = try keyboard.get()
    let announced = keyboard.added.advanced(by: VirtualKeyboard.announcementDelay)
    if !keyboard.seatHadKeyboard && !announced.hasPassed { window.iterate(for: announced - .now) }
    var typed = 0
    do throws(DesktopPopoverError) {
      for part in plan.parts {
        try keyboard.setKeymap(part.keymap)
        for (index, key) in part.keys.enumerated() {
          if index % Self.keysPerFocusCheck == 0, sway.focusedWindow() != target {
            throw .focusMoved(application: targetName)
          }
          try keyboard.tap(key)
          typed += 1
        }
      }
    } catch {
      guard typed > 0 else { throw error }
      throw .typingStopped(application: targetName, typed: typed, of: plan.count, reason: error.description)
    }
  }
}
