import Presentation

/// A rectangle in screen pixels (a monitor's area, a popover's frame).
package struct ScreenRect: Equatable, Sendable {
  package var x: Int
  package var y: Int
  package var width: Int
  package var height: Int

  package init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  package var maxX: Int { x + width }
  package var maxY: Int { y + height }

  package func contains(_ point: ScreenPoint) -> Bool { (x..<maxX).contains(point.x) && (y..<maxY).contains(point.y) }
}
