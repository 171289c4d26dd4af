/// Breaks text into lines that fit a width in terminal columns.
enum TextWrapper {
  /// Replaces what must not reach the terminal: tabs become spaces, carriage
  /// returns go, and every other control character becomes U+FFFD, so text
  /// from a provider or the caller cannot move the cursor or change modes.
  static func sanitized(_ text: String) -> String {
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x0A: result.append(scalar)
      case 0x09: result.append(contentsOf: "    ".unicodeScalars)
      case 0x0D: continue
      case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: result.append("\u{FFFD}")
      default: result.append(scalar)
      }
    }
    return String(result)
  }

  /// The lines of `text` wrapped at word boundaries to `width` columns (at
  /// least 1). Words wider than a line are broken between characters, which
  /// is also how text without spaces (Chinese, Japanese) breaks. Each line
  /// break in the text starts a new line.
  static func wrap(_ text: String, width: Int) -> [String] {
    let width = max(width, 1)
    var lines: [String] = []
    for paragraph in sanitized(text).split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      var lineWidth = 0
      for word in paragraph.split(separator: " ") {
        var word = Substring(word)
        var wordWidth = word.displayWidth
        if lineWidth > 0 && lineWidth + 1 + wordWidth <= width {
          line += " " + word
          lineWidth += 1 + wordWidth
          continue
        }
        if lineWidth > 0 {
          lines.append(line)
          (line, lineWidth) = ("", 0)
        }
        while wordWidth > width {
          var piece = word.prefix(columns: width)
          if piece.isEmpty { piece = word.prefix(1) }  // a character wider than the line
          lines.append(String(piece))
          word = word.dropFirst(piece.count)
          wordWidth = word.displayWidth
        }
        (line, lineWidth) = (String(word), wordWidth)
      }
      lines.append(line)
    }
    return lines
  }
}
