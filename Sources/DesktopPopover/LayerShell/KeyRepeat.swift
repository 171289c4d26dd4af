/// A held key repeating in the layer surface, as the compositor says keys
/// repeat (`wl_keyboard.repeat_info`): after `delay` the key is pressed
/// again, then `rate` times a second, until it is released, another key
/// is pressed, or the keyboard focus goes. A Wayland client repeats keys
/// itself; GTK does it for its windows, this does it for the popover's surface.
///
/// Pure: `LayerPopover` asks it when the next repeat is due and runs the timer.
struct KeyRepeat: Equatable {
  /// Repeats a second (0: keys do not repeat), and the wait before the first, in milliseconds.
  var rate: Int
  var delay: Int
  /// The key held (its XKB keycode), while it repeats.
  private(set) var held: UInt32?

  init(rate: Int, delay: Int) {
    self.rate = rate
    self.delay = delay
  }

  /// The time between repeats; nil when keys do not repeat.
  var interval: Duration? { rate > 0 ? .milliseconds(max(1000 / rate, 1)) : nil }

  /// A key pressed: it stops any other key repeating.
  /// - Returns: when it first repeats, nil when it does not (the keymap
  ///   says it does not, as for Shift or Esc, or keys do not repeat).
  mutating func pressed(keycode: UInt32, repeats: Bool) -> Duration? {
    guard repeats, rate > 0 else {
      held = nil
      return nil
    }
    held = keycode
    return .milliseconds(max(delay, 0))
  }

  /// A key released: whether it was the one repeating (which stops).
  @discardableResult
  mutating func released(keycode: UInt32) -> Bool {
    guard held == keycode else { return false }
    held = nil
    return true
  }

  /// Stops any repeating (the focus went, the popover hid).
  mutating func stop() { held = nil }
}
