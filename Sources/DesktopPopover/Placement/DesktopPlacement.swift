import Presentation

/// Where the desktop popover goes: next to its anchor on the side its
/// arrow edge asks for (`top` puts it below the anchor, as Apple's
/// `arrowEdge` does), flipped to the other side when only that one has
/// room, and kept on the anchor's monitor. Given the selection's bounds,
/// it goes below or above them (as iOS anchors its popover to the
/// selection), never over the selected lines when either side has room.
package struct DesktopPlacement: Equatable, Sendable {
  /// The arrow's length out of the popover's body, in pixels.
  package static let arrowLength = 10
  /// How far the arrow's tip stays from the window's corners: its base
  /// ends where the body's rounded corner begins.
  static let arrowInset = arrowLength + PopoverOutline.cornerRadius

  package var anchor: ScreenPoint?
  package var arrowEdge: ArrowEdge
  /// The selected text's bounds on the screen, when the application said
  /// (AT-SPI): with a top or bottom arrow edge they are the anchor.
  package var selection: ScreenRect?
  /// The application window the popover is for: on Wayland, where a
  /// client cannot place a window, the popover becomes its dialog
  /// (`WaylandDialog`), and the compositor places it over that window.
  package var parentWindow: ParentWindow?

  package init(
    anchor: ScreenPoint? = nil, arrowEdge: ArrowEdge = .top, selection: ScreenRect? = nil,
    parentWindow: ParentWindow? = nil
  ) {
    self.anchor = anchor
    self.arrowEdge = arrowEdge
    self.selection = selection
    self.parentWindow = parentWindow
  }

  /// The popover's frame: where its window goes (arrow included) and where its arrow is.
  package struct Frame: Equatable, Sendable {
    /// The window, arrow strip included.
    package var window: ScreenRect
    /// The side the arrow is on, and its tip's offset along that side from
    /// the window's left (top/bottom) or top (leading/trailing); nil: no arrow.
    package var arrow: (edge: ArrowEdge, offset: Int)?

    package static func == (left: Frame, right: Frame) -> Bool {
      left.window == right.window && left.arrow?.edge == right.arrow?.edge && left.arrow?.offset == right.arrow?.offset
    }
  }

  /// The frame of a popover whose body is `width` × `height` on `screen`
  /// (the monitor with the anchor). Without an anchor, or with one off the
  /// monitor, it is centred without an arrow.
  package func frame(width: Int, height: Int, screen: ScreenRect) -> Frame {
    if let selection, arrowEdge.isVertical {
      // The arrow's tip at the middle of the selection's bottom (or top) edge, on the monitor.
      let x = min(max(selection.x + selection.width / 2, screen.x), screen.maxX - 1)
      let below = ScreenPoint(x: x, y: selection.maxY)
      let above = ScreenPoint(x: x, y: selection.y)
      if screen.contains(above) || screen.contains(below) {
        let length = height + Self.arrowLength
        let room = (below: screen.maxY - below.y, above: above.y - screen.y)
        let (wanted, other) = arrowEdge == .top ? (room.below, room.above) : (room.above, room.below)
        let keep = wanted >= length || other < length && wanted >= other
        let edge = keep ? arrowEdge : arrowEdge.opposite
        return frame(at: edge == .top ? below : above, edge: edge, width: width, height: height, screen: screen)
      }
    }
    guard let anchor, screen.contains(anchor) else {
      return Frame(
        window: ScreenRect(
          x: screen.x + max((screen.width - width) / 2, 0), y: screen.y + max((screen.height - height) / 2, 0),
          width: width, height: height),
        arrow: nil)
    }
    let vertical = arrowEdge.isVertical
    let length = (vertical ? height : width) + Self.arrowLength
    let room = self.room(around: anchor, on: screen)
    let edge: ArrowEdge =
      room(arrowEdge) >= length || room(arrowEdge.opposite) < length && room(arrowEdge) >= room(arrowEdge.opposite)
      ? arrowEdge : arrowEdge.opposite
    return frame(at: anchor, edge: edge, width: width, height: height, screen: screen)
  }

  /// The frame for a body of `width` × `height` (as `frame(width:height:screen:)`)
  /// when the popover already shows at `shown`: where the arrow stays on
  /// the same side and the window still fits on the monitor with the tip
  /// within it, the window stays where it is (only its arrow moves along
  /// it), so new content of another width does not move it sideways.
  package func frame(width: Int, height: Int, screen: ScreenRect, keeping shown: Frame?) -> Frame {
    let fresh = frame(width: width, height: height, screen: screen)
    guard let shown, let arrow = fresh.arrow, shown.arrow?.edge == arrow.edge else { return fresh }
    let vertical = arrow.edge.isVertical
    let start = vertical ? shown.window.x : shown.window.y
    let length = vertical ? fresh.window.width : fresh.window.height
    let tip = (vertical ? fresh.window.x : fresh.window.y) + arrow.offset
    let (lower, upper) = vertical ? (screen.x, screen.maxX) : (screen.y, screen.maxY)
    guard start >= lower, start + length <= upper, tip - start >= Self.arrowInset,
      start + length - tip >= Self.arrowInset
    else { return fresh }
    var kept = fresh
    if vertical { kept.window.x = start } else { kept.window.y = start }
    kept.arrow = (arrow.edge, tip - start)
    return kept
  }

  /// The frame with the arrow on `edge` and its tip at `anchor`, kept on `screen`.
  private func frame(at anchor: ScreenPoint, edge: ArrowEdge, width: Int, height: Int, screen: ScreenRect) -> Frame {
    let vertical = edge.isVertical
    let windowWidth = vertical ? width : width + Self.arrowLength
    let windowHeight = vertical ? height + Self.arrowLength : height
    var x: Int
    var y: Int
    switch edge {
    case .top: (x, y) = (anchor.x - width / 2, anchor.y)
    case .bottom: (x, y) = (anchor.x - width / 2, anchor.y - windowHeight)
    case .leading: (x, y) = (anchor.x, anchor.y - height / 2)
    case .trailing: (x, y) = (anchor.x - windowWidth, anchor.y - height / 2)
    }
    x = Self.clamp(x, length: windowWidth, within: screen.x, screen.maxX)
    y = Self.clamp(y, length: windowHeight, within: screen.y, screen.maxY)
    let along = vertical ? anchor.x - x : anchor.y - y
    let span = vertical ? windowWidth : windowHeight
    let offset = min(max(along, Self.arrowInset), max(span - Self.arrowInset, Self.arrowInset))
    return Frame(window: ScreenRect(x: x, y: y, width: windowWidth, height: windowHeight), arrow: (edge, offset))
  }

  /// The pixels free on each side of the anchor.
  private func room(around anchor: ScreenPoint, on screen: ScreenRect) -> (ArrowEdge) -> Int {
    { edge in
      switch edge {
      case .top: screen.maxY - anchor.y
      case .bottom: anchor.y - screen.y
      case .leading: screen.maxX - anchor.x
      case .trailing: anchor.x - screen.x
      }
    }
  }

  /// `start` moved so that `length` pixels from it stay within `lower..<upper` (the lower bound wins).
  private static func clamp(_ start: Int, length: Int, within lower: Int, _ upper: Int) -> Int {
    max(min(start, upper - length), lower)
  }
}
