/// One line of the popover: runs of text, each with its style.
struct StyledLine: Equatable, Sendable {
  struct Span: Equatable, Sendable {
    var text: String
    var style: TextStyle
  }

  private(set) var spans: [Span] = []
  /// Columns taken.
  private(set) var width = 0

  init() {}

  init(_ text: String, style: TextStyle = []) { append(text, style: style) }

  /// The characters of the line, without styles.
  var text: String { spans.map(\.text).joined() }

  mutating func append(_ text: String, style: TextStyle = []) {
    guard !text.isEmpty else { return }
    if let last = spans.last, last.style == style {
      spans[spans.count - 1].text += text
    } else {
      spans.append(Span(text: text, style: style))
    }
    width += text.displayWidth
  }

  mutating func append(_ line: StyledLine) {
    for span in line.spans { append(span.text, style: span.style) }
  }

  /// The line padded with spaces to `columns`, placed by `alignment`.
  func aligned(to columns: Int, _ alignment: HorizontalAlignment) -> StyledLine {
    let room = max(columns - width, 0)
    let before = alignment.offset(room: room)
    var line = StyledLine(String(repeating: " ", count: before))
    line.append(self)
    line.append(String(repeating: " ", count: room - before))
    return line
  }

  /// The first `columns` columns of the line.
  func clipped(to columns: Int) -> StyledLine {
    guard width > columns else { return self }
    var line = StyledLine()
    for span in spans {
      let piece = span.text.prefix(columns: columns - line.width)
      line.append(String(piece), style: span.style)
      if piece.count < span.text.count { break }
    }
    return line
  }

  /// The line with `style` added to every span.
  func adding(_ style: TextStyle) -> StyledLine {
    var line = StyledLine()
    for span in spans { line.append(span.text, style: span.style.union(style)) }
    return line
  }
}
