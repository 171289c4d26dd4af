import FoundationEssentials
import TestSupport

/// What a screenshot shows in a rectangle, counted by ImageMagick.
enum Screenshot {
  /// The number of distinct colours in the rectangle of the PNG at `path`:
  /// a flat area has one or two, drawn text and controls dozens (antialiasing).
  static func colours(in path: String, x: Int, y: Int, width: Int, height: Int) throws -> Int {
    let result = try Command.run(
      "/usr/bin/convert", [path, "-crop", "\(width)x\(height)+\(x)+\(y)", "+repage", "-format", "%k", "info:"])
    guard result.exitCode == 0, let count = Int(result.stdout.trimmingWhitespace()) else {
      throw ToolFailed(tool: "convert", result: result)
    }
    return count
  }
}
