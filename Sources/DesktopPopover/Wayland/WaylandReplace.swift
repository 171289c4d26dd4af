/// Replace on Wayland without the clipboard: the translation is typed into
/// the window the text was selected in (typing over a selection replaces
/// it), through the virtual keyboard, and only once sway says that window,
/// shown by the same process, has the keyboard focus again. Where that
/// cannot be confirmed (not sway, the window gone, another one focused),
/// nothing is typed and the caller leaves the translation on the clipboard.
///
/// The window the text came from is the one that had the focus when the
/// popover was asked for (the shortcut's press): with the Wayland PRIMARY
/// selection, its owner cannot be asked.
struct WaylandReplace {
  /// How long the focus may take to come back once the popover is hidden.
  static let focusPatience = Duration.seconds(1)

  let sway: SwayIPC
  let target: SwayIPC.Window

  /// The window focused now, on sway; nil elsewhere, or when none has the focus.
  init?(environment: [String: String]) {
    guard let sway = SwayIPC(environment: environment), let focused = sway.focusedWindow(), focused.pid != nil else {
      return nil
    }
    self.sway = sway
    target = focused
  }

  /// Types `translation` into the target window once it has the focus
  /// again (the popover hidden), serving `window`'s loop meanwhile.
  /// - Returns: whether it was typed.
  func type(_ translation: String, environment: [String: String], window: PopoverWindow) -> Bool {
    let deadline = ContinuousClock.Instant.after(Self.focusPatience)
    var focused = sway.focusedWindow()
    while focused != target && !deadline.hasPassed {
      window.iterate(for: .milliseconds(20))
      focused = sway.focusedWindow()
    }
    guard focused == target else { return false }
    return VirtualKeyboard.type(translation, environment: environment)
  }
}
