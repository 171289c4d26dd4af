import Presentation
import Testing

@testable import TerminalPopover

@Suite struct PopoverPlacementTests {
  private let screen = (rows: 24, columns: 80)

  struct Case: Sendable, CustomTestStringConvertible {
    var anchor: CellPosition?
    var edge: ArrowEdge
    var size: (width: Int, height: Int)
    var origin: CellPosition
    var frameSize: (width: Int, height: Int)
    var arrow: ArrowEdge?
    var testDescription: String { "\(anchor.map { "\($0.line),\($0.column)" } ?? "none") \(edge)" }
  }

  static let cases: [Case] = [
    // Centred without an anchor.
    Case(anchor: nil, edge: .top, size: (40, 10), origin: .init(line: 7, column: 20), frameSize: (40, 10), arrow: nil),
    // Below the anchor, arrow on top.
    Case(
      anchor: .init(line: 2, column: 40), edge: .top, size: (40, 10), origin: .init(line: 3, column: 20), frameSize: (40, 10),
      arrow: .top),
    // Near the bottom: flips above, arrow on the bottom.
    Case(
      anchor: .init(line: 20, column: 40), edge: .top, size: (40, 10), origin: .init(line: 10, column: 20), frameSize: (40, 10),
      arrow: .bottom),
    // Above the anchor as asked.
    Case(
      anchor: .init(line: 20, column: 40), edge: .bottom, size: (40, 10), origin: .init(line: 10, column: 20),
      frameSize: (40, 10), arrow: .bottom),
    // Near the top edge: asked above, flips below.
    Case(
      anchor: .init(line: 1, column: 40), edge: .bottom, size: (40, 10), origin: .init(line: 2, column: 20), frameSize: (40, 10),
      arrow: .top),
    // Near the left edge: kept on screen.
    Case(
      anchor: .init(line: 2, column: 0), edge: .top, size: (40, 10), origin: .init(line: 3, column: 0), frameSize: (40, 10),
      arrow: .top),
    // Near the right edge: kept on screen.
    Case(
      anchor: .init(line: 2, column: 79), edge: .top, size: (40, 10), origin: .init(line: 3, column: 40), frameSize: (40, 10),
      arrow: .top),
    // Right of the anchor, arrow on the leading side.
    Case(
      anchor: .init(line: 12, column: 10), edge: .leading, size: (40, 10), origin: .init(line: 7, column: 11),
      frameSize: (40, 10), arrow: .leading),
    // Near the right edge: flips left, arrow on the trailing side.
    Case(
      anchor: .init(line: 12, column: 70), edge: .leading, size: (40, 10), origin: .init(line: 7, column: 30),
      frameSize: (40, 10), arrow: .trailing),
    // Too tall for either side: the roomier side, shrunk.
    Case(
      anchor: .init(line: 8, column: 40), edge: .top, size: (40, 30), origin: .init(line: 9, column: 20), frameSize: (40, 15),
      arrow: .top),
    // An anchor off the screen is clamped to its edge.
    Case(
      anchor: .init(line: 99, column: 99), edge: .top, size: (30, 6), origin: .init(line: 17, column: 50), frameSize: (30, 6),
      arrow: .bottom),
  ]

  @Test(arguments: cases)
  func placesThePopoverOnScreen(_ test: Case) throws {
    let placement = PopoverPlacement(anchor: test.anchor, arrowEdge: test.edge)
    let frame = try #require(placement.frame(width: test.size.width, height: test.size.height, screen: screen))
    #expect(frame.origin == test.origin)
    #expect(frame.width == test.frameSize.width && frame.height == test.frameSize.height)
    #expect(frame.arrow?.edge == test.arrow)
    #expect(frame.origin.line >= 0 && frame.origin.column >= 0)
    #expect(frame.origin.line + frame.height <= screen.rows && frame.origin.column + frame.width <= screen.columns)
    if let arrow = frame.arrow, let anchor = test.anchor {
      // The arrow sits on the border next to the anchor.
      let clamped = CellPosition(line: min(anchor.line, screen.rows - 1), column: min(anchor.column, screen.columns - 1))
      if arrow.edge.isVertical {
        #expect(abs(arrow.position.line - clamped.line) == 1)
      } else {
        #expect(abs(arrow.position.column - clamped.column) == 1)
      }
    }
  }

  @Test func refusesAScreenSmallerThanThePopover() {
    #expect(PopoverPlacement().frame(width: 40, height: 10, screen: (4, 80)) == nil)
    #expect(PopoverPlacement().frame(width: 40, height: 10, screen: (24, 20)) == nil)
  }
}

@Suite struct PopoverChromeTests {
  init() { TerminalLocale.prepare() }

  @Test(arguments: [(1, "┌▲─ Name ───────────┐"), (4, "┌───▲─ Name ────────┐"), (18, "┌─ Name ──────────▲─┐")])
  func keepsTheTitleClearOfTheArrow(arrowColumn: Int, top: String) {
    let frame = PopoverFrame(
      origin: CellPosition(line: 1, column: 0), width: 21, height: 4,
      arrow: .init(edge: .top, position: CellPosition(line: 1, column: arrowColumn)))
    let lines = PopoverChrome(frame: frame, title: "Name", unicode: true).lines([StyledLine("text")], scroll: 0, total: 1)
    #expect(lines.first?.line.text == top)
    #expect(lines.count == 4)
    #expect(lines[1].line.text == "│ text              │")
  }
}
