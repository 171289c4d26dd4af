import Presentation
import Testing

@testable import DesktopPopover

/// Where the desktop popover goes, in screen pixels.
@Suite struct DesktopPlacementTests {
  static let screen = ScreenRect(x: 0, y: 0, width: 1280, height: 800)
  static let arrow = DesktopPlacement.arrowLength

  struct Case: Sendable, CustomTestStringConvertible {
    var anchor: ScreenPoint?
    var edge: ArrowEdge
    var size: (width: Int, height: Int)
    var window: ScreenRect
    var arrow: (edge: ArrowEdge, offset: Int)?
    var testDescription: String { "\(anchor.map { "\($0.x),\($0.y)" } ?? "none") \(edge)" }
  }

  @Test(arguments: [
    // Below the anchor, centred on it, the arrow's tip at the anchor.
    Case(
      anchor: ScreenPoint(x: 640, y: 100), edge: .top, size: (300, 200),
      window: ScreenRect(x: 490, y: 100, width: 300, height: 200 + arrow), arrow: (.top, 150)),
    // No room below: flipped above.
    Case(
      anchor: ScreenPoint(x: 640, y: 750), edge: .top, size: (300, 200),
      window: ScreenRect(x: 490, y: 750 - 200 - arrow, width: 300, height: 200 + arrow), arrow: (.bottom, 150)),
    // Above as asked.
    Case(
      anchor: ScreenPoint(x: 640, y: 400), edge: .bottom, size: (300, 200),
      window: ScreenRect(x: 490, y: 400 - 200 - arrow, width: 300, height: 200 + arrow), arrow: (.bottom, 150)),
    // Near the left edge: kept on screen, the arrow still at the anchor.
    Case(
      anchor: ScreenPoint(x: 30, y: 100), edge: .top, size: (300, 200),
      window: ScreenRect(x: 0, y: 100, width: 300, height: 200 + arrow), arrow: (.top, 30)),
    // At the very corner: the arrow stays off the rounded corner.
    Case(
      anchor: ScreenPoint(x: 0, y: 0), edge: .top, size: (300, 200),
      window: ScreenRect(x: 0, y: 0, width: 300, height: 200 + arrow), arrow: (.top, 20)),
    // To the right of the anchor (leading arrow), flipped left near the right edge.
    Case(
      anchor: ScreenPoint(x: 100, y: 400), edge: .leading, size: (300, 200),
      window: ScreenRect(x: 100, y: 300, width: 300 + arrow, height: 200), arrow: (.leading, 100)),
    Case(
      anchor: ScreenPoint(x: 1200, y: 400), edge: .leading, size: (300, 200),
      window: ScreenRect(x: 1200 - 300 - arrow, y: 300, width: 300 + arrow, height: 200), arrow: (.trailing, 100)),
    // No anchor, or one off the monitor: centred, no arrow.
    Case(anchor: nil, edge: .top, size: (300, 200), window: ScreenRect(x: 490, y: 300, width: 300, height: 200), arrow: nil),
    Case(
      anchor: ScreenPoint(x: -5, y: 4000), edge: .top, size: (300, 200),
      window: ScreenRect(x: 490, y: 300, width: 300, height: 200), arrow: nil),
    // Taller than either side: the roomier side, kept on screen.
    Case(
      anchor: ScreenPoint(x: 640, y: 300), edge: .top, size: (300, 700),
      window: ScreenRect(x: 490, y: 90, width: 300, height: 700 + arrow), arrow: (.top, 150)),
  ])
  func placesThePopover(_ example: Case) {
    let placement = DesktopPlacement(anchor: example.anchor, arrowEdge: example.edge)
    let frame = placement.frame(width: example.size.width, height: example.size.height, screen: Self.screen)
    #expect(frame.window == example.window)
    #expect(frame.arrow?.edge == example.arrow?.edge)
    #expect(frame.arrow?.offset == example.arrow?.offset)
  }

  struct SelectionCase: Sendable, CustomTestStringConvertible {
    var selection: ScreenRect
    var edge: ArrowEdge
    var window: ScreenRect
    var arrow: (edge: ArrowEdge, offset: Int)
    var testDescription: String { "\(selection) \(edge)" }
  }

  /// Anchored at the selection's extents: below (or above) the selected
  /// lines, never over them, whatever the pointer; the arrow at their middle.
  @Test(arguments: [
    // One line: below it, centred on it.
    SelectionCase(
      selection: ScreenRect(x: 600, y: 100, width: 80, height: 18), edge: .top,
      window: ScreenRect(x: 490, y: 118, width: 300, height: 200 + arrow), arrow: (.top, 150)),
    // Three lines near the bottom: above the first, not over any.
    SelectionCase(
      selection: ScreenRect(x: 100, y: 600, width: 600, height: 54), edge: .top,
      window: ScreenRect(x: 250, y: 600 - 200 - arrow, width: 300, height: 200 + arrow), arrow: (.bottom, 150)),
    // Above as asked.
    SelectionCase(
      selection: ScreenRect(x: 600, y: 400, width: 80, height: 18), edge: .bottom,
      window: ScreenRect(x: 490, y: 400 - 200 - arrow, width: 300, height: 200 + arrow), arrow: (.bottom, 150)),
    // Above asked, no room above: below.
    SelectionCase(
      selection: ScreenRect(x: 600, y: 50, width: 80, height: 18), edge: .bottom,
      window: ScreenRect(x: 490, y: 68, width: 300, height: 200 + arrow), arrow: (.top, 150)),
    // At the left edge: kept on screen, the arrow still under the selection.
    SelectionCase(
      selection: ScreenRect(x: 0, y: 100, width: 40, height: 18), edge: .top,
      window: ScreenRect(x: 0, y: 118, width: 300, height: 200 + arrow), arrow: (.top, 20)),
  ])
  func anchorsAtTheSelection(_ example: SelectionCase) {
    // The pointer is elsewhere: the selection wins.
    let placement = DesktopPlacement(
      anchor: ScreenPoint(x: 5, y: 5), arrowEdge: example.edge, selection: example.selection)
    let frame = placement.frame(width: 300, height: 200, screen: Self.screen)
    #expect(frame.window == example.window)
    #expect(frame.arrow?.edge == example.arrow.edge)
    #expect(frame.arrow?.offset == example.arrow.offset)
    let selection = example.selection
    #expect(frame.window.y >= selection.maxY || frame.window.maxY <= selection.y, "the popover covers the selection")
  }

  /// A popover already shown (a spinner, 200 wide) whose content grows:
  /// it stays where it was mapped while it fits, only its arrow moving.
  @Test(
    arguments: [
      // Wider content below the anchor: same left edge, the tip still at the anchor.
      (ScreenPoint(x: 640, y: 100), ArrowEdge.top, (450, 300), ScreenRect(x: 540, y: 100, width: 450, height: 300 + arrow), 100),
      // Content too wide to stay (it would leave the screen): placed afresh, centred.
      (ScreenPoint(x: 1100, y: 100), .top, (450, 300), ScreenRect(x: 830, y: 100, width: 450, height: 300 + arrow), 270),
      // To the right of the anchor, taller: same top edge.
      (ScreenPoint(x: 100, y: 400), .leading, (300, 260), ScreenRect(x: 100, y: 340, width: 300 + arrow, height: 260), 60),
    ] as [(ScreenPoint, ArrowEdge, (Int, Int), ScreenRect, Int)])
  func aShownPopoverStaysWhereItWasMapped(
    anchor: ScreenPoint, edge: ArrowEdge, size: (Int, Int), window: ScreenRect, offset: Int
  ) {
    let placement = DesktopPlacement(anchor: anchor, arrowEdge: edge)
    let shown = placement.frame(width: 200, height: 120, screen: Self.screen)
    let frame = placement.frame(width: size.0, height: size.1, screen: Self.screen, keeping: shown)
    #expect(frame.window == window)
    #expect(frame.arrow?.edge == edge)
    #expect(frame.arrow?.offset == offset)
    // Without a shown frame, the same as a first placement.
    #expect(
      placement.frame(width: size.0, height: size.1, screen: Self.screen, keeping: nil)
        == placement.frame(width: size.0, height: size.1, screen: Self.screen))
  }

  @Test(arguments: [
    ("640,360", ScreenPoint(x: 640, y: 360)), (" 1, 2 ", ScreenPoint(x: 1, y: 2)), ("-4,0", ScreenPoint(x: -4, y: 0)),
  ])
  func parsesAnchors(text: String, point: ScreenPoint) {
    #expect(ScreenPoint(parsing: text) == point)
  }

  @Test(arguments: ["", "1", "1,2,3", "a,b", "1.5,2", ",", "99999999999999999999,1"])
  func rejectsBadAnchors(text: String) {
    #expect(ScreenPoint(parsing: text) == nil)
  }
}
