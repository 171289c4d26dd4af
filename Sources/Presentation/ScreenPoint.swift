import System

/// A point in screen pixels: `--anchor x,y`, or the pointer.
package struct ScreenPoint: Equatable, Sendable {
  package var x: Int
  package var y: Int

  package init(x: Int, y: Int) {
    self.x = x
    self.y = y
  }

  /// Parses `x,y` (whitespace allowed around each number); nil when it is not two integers.
  package init?(parsing text: some StringProtocol) {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2,
      let x = Int(parts[0].trimmingWhitespace()), let y = Int(parts[1].trimmingWhitespace())
    else { return nil }
    self.init(x: x, y: y)
  }
}
