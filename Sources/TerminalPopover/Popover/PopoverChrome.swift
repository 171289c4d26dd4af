import Presentation

/// The popover's frame drawn around its content: a border titled with the
/// provider's name, the arrow toward the anchor, and where the content is
/// scrolled to when it does not fit.
struct PopoverChrome {
  var frame: PopoverFrame
  var title: String
  var unicode: Bool
  /// Shown on the bottom border while the provider works on a press or an edit.
  var status: String? = nil

  /// Columns of content inside the border and its one-column padding.
  var contentWidth: Int { frame.width - 4 }
  /// Rows of content inside the border.
  var contentHeight: Int { frame.height - 2 }

  /// The screen lines: `visible` content lines (already at most
  /// `contentHeight`) inside the frame. `scroll` is the first visible line
  /// of `total`.
  func lines(_ visible: [StyledLine], scroll: Int, total: Int) -> [(position: CellPosition, line: StyledLine)] {
    let glyphs = unicode ? ["┌", "┐", "└", "┘", "─", "│"] : ["+", "+", "+", "+", "-", "|"]
    var top = cells(glyphs[0], glyphs[4], glyphs[1])
    let name = " " + String(TextWrapper.sanitized(title).prefix(columns: max(frame.width - 6, 0))) + " "
    if frame.width >= 8 { put(name, style: [.bold], at: titleColumn(width: name.displayWidth), in: &top) }
    var bottom = cells(glyphs[2], glyphs[4], glyphs[3])
    if let status { put(" \(status) ", style: .dim, at: 2, in: &bottom) }
    if total > contentHeight {
      let last = min(scroll + contentHeight, total)
      let more = (scroll > 0 ? (unicode ? "↑" : "^") : "") + (last < total ? (unicode ? "↓" : "v") : "")
      let position = " \(more) \(scroll + 1)–\(last)/\(total) "
      put(
        unicode ? position : position.replacing("–", with: "-"), style: .dim, at: max(frame.width - 2 - position.displayWidth, 1),
        in: &bottom)
    }
    var sideArrow: PopoverFrame.Arrow?
    if let arrow = frame.arrow {
      let glyph = arrow.edge.glyph(unicode: unicode)
      switch arrow.edge {
      case .top: put(glyph, style: .accent, at: arrow.position.column - frame.origin.column, in: &top)
      case .bottom: put(glyph, style: .accent, at: arrow.position.column - frame.origin.column, in: &bottom)
      case .leading, .trailing: sideArrow = arrow
      }
    }
    /// The border at `edge` of screen row `row`: the arrow where it points from, else a line.
    func border(_ edge: ArrowEdge, _ row: Int) -> String {
      sideArrow?.edge == edge && sideArrow?.position.line == row ? edge.glyph(unicode: unicode) : glyphs[5]
    }
    var result = [(CellPosition(line: frame.origin.line, column: frame.origin.column), joined(top))]
    for row in 0..<contentHeight {
      let screenRow = frame.origin.line + 1 + row
      var line = StyledLine(border(.leading, screenRow), style: .accent)
      line.append(" ")
      line.append(
        (row < visible.count ? visible[row] : StyledLine()).clipped(to: contentWidth).aligned(to: contentWidth, .leading))
      line.append(" ")
      line.append(border(.trailing, screenRow), style: .accent)
      result.append((CellPosition(line: screenRow, column: frame.origin.column), line))
    }
    result.append((CellPosition(line: frame.origin.line + frame.height - 1, column: frame.origin.column), joined(bottom)))
    return result
  }

  /// Where the title starts on the top border: column 2, or beside an arrow
  /// on that border that it would cover.
  private func titleColumn(width: Int) -> Int {
    guard let arrow = frame.arrow, arrow.edge == .top else { return 2 }
    let column = arrow.position.column - frame.origin.column
    guard (1..<2 + width).contains(column) else { return 2 }
    if column + 2 + width <= frame.width - 1 { return column + 2 }
    return max(column - 1 - width, 1)
  }

  /// A border line as one cell per column; a wide character's second cell is empty.
  private func cells(_ left: String, _ fill: String, _ right: String) -> [(text: String, style: TextStyle)] {
    [(left, .accent)] + Array(repeating: (fill, .accent), count: max(frame.width - 2, 0)) + [(right, .accent)]
  }

  /// Writes `text` into `cells` from column `start`, as far as the last-but-one cell.
  private func put(_ text: String, style: TextStyle, at start: Int, in cells: inout [(text: String, style: TextStyle)]) {
    var column = start
    for character in text {
      let width = character.displayWidth
      guard column >= 1, column + width <= cells.count - 1 else { break }
      // Overwriting half of a wide character blanks its other half.
      if cells[column].text.isEmpty, column > 0 { cells[column - 1] = (" ", cells[column - 1].style) }
      if column + width < cells.count, cells[column + width].text.isEmpty { cells[column + width] = (" ", style) }
      cells[column] = (String(character), style)
      for extra in 1..<max(width, 1) { cells[column + extra] = ("", style) }
      column += width
    }
  }

  private func joined(_ cells: [(text: String, style: TextStyle)]) -> StyledLine {
    var line = StyledLine()
    for cell in cells { line.append(cell.text, style: cell.style) }
    return line
  }
}
