import Presentation
import Testing

@testable import DesktopPopover

/// The popover's outline as the X shape of its window: the body's rounded
/// corners and the arrow's sides are outside it, the arrow joins the body.
@Suite struct PopoverOutlineTests {
  static let length = DesktopPlacement.arrowLength

  struct Case: Sendable, CustomTestStringConvertible {
    var outline: PopoverOutline
    /// Pixels (window coordinates) that must be inside, and outside.
    var inside: [(Int, Int)]
    var outside: [(Int, Int)]
    var testDescription: String { "\(outline.arrowEdge.map { "\($0)" } ?? "no arrow") at \(outline.arrowOffset)" }
  }

  @Test(arguments: [
    // Arrow on top, its tip 100 pixels in: the tip's column reaches the top row, its sides do not.
    Case(
      outline: PopoverOutline(width: 300, height: 210, arrowEdge: .top, arrowOffset: 100),
      inside: [(100, 0), (99, 1), (100, 5), (91, 9), (150, 120), (0, 110), (299, 110), (10, 10), (5, 205)],
      outside: [(0, 0), (50, 5), (98, 0), (102, 0), (89, 9), (0, 10), (299, 10), (0, 209), (299, 209), (1, 11)]),
    // Arrow at the bottom: the mirror image.
    Case(
      outline: PopoverOutline(width: 300, height: 210, arrowEdge: .bottom, arrowOffset: 200),
      inside: [(200, 209), (200, 205), (150, 100), (0, 100), (10, 199)],
      outside: [(0, 0), (299, 0), (0, 199), (150, 205), (198, 209), (202, 209)]),
    // Arrow on the left (leading) and right (trailing).
    Case(
      outline: PopoverOutline(width: 310, height: 200, arrowEdge: .leading, arrowOffset: 60),
      inside: [(0, 60), (5, 60), (9, 52), (10, 0 + 10), (309, 100)],
      outside: [(0, 0), (5, 50), (0, 59 - 2), (10, 0), (309, 0)]),
    Case(
      outline: PopoverOutline(width: 310, height: 200, arrowEdge: .trailing, arrowOffset: 140),
      inside: [(309, 140), (304, 140), (300, 132), (0, 100)],
      outside: [(309, 0), (309, 130), (305, 134), (0, 0)]),
    // No arrow: a rounded rectangle.
    Case(
      outline: PopoverOutline(width: 100, height: 50, arrowEdge: nil, arrowOffset: 0),
      inside: [(50, 0), (0, 25), (99, 25), (50, 49), (3, 3)],
      outside: [(0, 0), (99, 0), (0, 49), (99, 49), (1, 1)]),
  ])
  func theShapeHoldsTheBodyAndTheArrow(example: Case) {
    let rectangles = example.outline.rectangles
    func covers(_ point: (Int, Int)) -> Bool {
      rectangles.contains { point.0 >= $0.x && point.0 < $0.maxX && point.1 >= $0.y && point.1 < $0.maxY }
    }
    for point in example.inside { #expect(covers(point), "\(point) should be inside") }
    for point in example.outside { #expect(!covers(point), "\(point) should be outside") }
  }

  /// The rectangles are what XShapeCombineRectangles's YXBanded ordering
  /// asks for: sorted by row, then column, never overlapping, and every
  /// row of the window has the body's pixels.
  @Test(arguments: [ArrowEdge.top, .bottom, .leading, .trailing])
  func theRectanglesAreBanded(edge: ArrowEdge) {
    let outline = PopoverOutline(width: 320, height: 220, arrowEdge: edge, arrowOffset: 80)
    let rectangles = outline.rectangles
    for (first, second) in zip(rectangles, rectangles.dropFirst()) {
      #expect(first.y < second.y || (first.y == second.y && first.height == second.height && first.maxX < second.x))
      #expect(second.y >= first.maxY || first.y == second.y)
    }
    let area = rectangles.reduce(0) { $0 + $1.width * $1.height }
    #expect(area < outline.width * outline.height)
    #expect(area > outline.body.width * outline.body.height - 4 * 30)
    // The arrow joins the body: the rows (or columns) by its base are one span.
    let body = outline.body
    let row = edge == .top ? body.y : edge == .bottom ? body.maxY - 1 : 80
    #expect(outline.spans(row: row).count == 1)
  }
}
