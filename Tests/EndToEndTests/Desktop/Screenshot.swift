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

  /// The colours of `points` in the PNG at `path`, as `RRGGBB` hexadecimal, in one read.
  static func colours(in path: String, at points: [(x: Int, y: Int)]) throws -> [String] {
    let format = points.map { "%[hex:p{\($0.x),\($0.y)}]" }.joined(separator: " ")
    let result = try Command.run("/usr/bin/convert", [path, "-depth", "8", "-format", format, "info:"])
    let colours = result.stdout.split(separator: " ").map { String($0.prefix(6)) }
    guard result.exitCode == 0, colours.count == points.count else { throw ToolFailed(tool: "convert", result: result) }
    return colours
  }

  /// How many pixels differ between two PNGs of one size (by more than 2 %).
  static func differingPixels(_ first: String, _ second: String) throws -> Int {
    let result = try Command.run("/usr/bin/compare", ["-metric", "AE", "-fuzz", "2%", first, second, "null:"])
    // compare says the count on stderr, and exits 1 when the images differ.
    guard result.exitCode <= 1, let count = Double(result.stderr.trimmingWhitespace()) else {
      throw ToolFailed(tool: "compare", result: result)
    }
    return Int(count)
  }

  /// The bounding box of the pixels of the PNG at `path` that differ from
  /// those of `before` (one size; by more than 2 %), nil when none do.
  static func changedArea(_ path: String, from before: String) throws -> RunningCommand.Frame? {
    let result = try Command.run(
      "/usr/bin/convert", [before, path, "-compose", "difference", "-composite", "-fuzz", "2%", "-format", "%@", "info:"])
    guard result.exitCode == 0 else { throw ToolFailed(tool: "convert", result: result) }
    // WxH+X+Y, the box a trim would keep; one that finds nothing keeps one pixel (or none).
    let numbers = result.stdout.split(whereSeparator: { "x+".contains($0) }).compactMap { Int($0) }
    guard numbers.count == 4, numbers[0] > 1, numbers[1] > 1 else { return nil }
    return (numbers[2], numbers[3], numbers[0], numbers[1])
  }

  /// How far apart two `RRGGBB` colours are: the largest difference of a channel.
  static func distance(_ first: String, _ second: String) -> Int {
    func channels(_ hex: String) -> [Int] {
      stride(from: 0, to: 6, by: 2).map { Int(hex.dropFirst($0).prefix(2), radix: 16) ?? 0 }
    }
    return zip(channels(first), channels(second)).map { abs($0 - $1) }.max() ?? 0
  }
}
