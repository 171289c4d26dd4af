/// What fingers on the layer surface mean, as taps do on iOS: a finger put
/// down outside the popover (on the catcher over the rest of the output)
/// dismisses it; one lifted presses the control where it went down, so a
/// finger that slides off a button still presses it, as a click does where
/// it was pressed; a cancel (the compositor took the touches for a gesture
/// of its own) presses nothing.
///
/// Pure: `LayerPopover` feeds it the compositor's touch events (surface
/// pixels, logical) and carries out what it returns.
struct LayerTouchTracker {
  enum Outcome: Equatable {
    case nothing
    case dismiss
    /// A tap at `x`, `y` of the popover's surface: the control there is pressed.
    case tap(x: Double, y: Double)
  }

  /// Where each finger inside the popover went down, by its id.
  private var downs: [Int32: (x: Double, y: Double)] = [:]

  /// How many fingers are down inside the popover now.
  var fingersDown: Int { downs.count }

  mutating func down(id: Int32, x: Double, y: Double, inside: Bool) -> Outcome {
    guard inside else {
      downs = [:]
      return .dismiss
    }
    downs[id] = (x, y)
    return .nothing
  }

  mutating func up(id: Int32) -> Outcome {
    guard let point = downs.removeValue(forKey: id) else { return .nothing }
    return .tap(x: point.x, y: point.y)
  }

  mutating func cancel() { downs = [:] }
}
