import Presentation

/// Where to attach the popover: the counterpart of `attachmentAnchor` and
/// `arrowEdge`. Without an anchor it is centred.
package struct PopoverPlacement: Equatable, Sendable {
  /// The cell the popover points at (0-based).
  package var anchor: CellPosition?
  package var arrowEdge: ArrowEdge

  /// The smallest popover worth drawing, borders included.
  static let minimumSize = (width: 24, height: 5)

  package init(anchor: CellPosition? = nil, arrowEdge: ArrowEdge = .top) {
    self.anchor = anchor
    self.arrowEdge = arrowEdge
  }

  /// The widest popover this placement can give on a screen, borders included.
  func maximumWidth(screen: (rows: Int, columns: Int)) -> Int {
    guard let anchor = clampedAnchor(screen), !arrowEdge.isVertical else { return screen.columns }
    let (preferred, other) = horizontalRoom(anchor, screen)
    return preferred >= Self.minimumSize.width ? preferred : max(preferred, other)
  }

  /// The frame for a popover that would like `width` × `height` cells.
  ///
  /// It always fits on the screen: the popover goes on the side `arrowEdge`
  /// asks for, or the opposite side when only that one has room for it,
  /// or else the roomier side, shrunk. When neither side has room for the
  /// smallest popover, it is centred without an arrow. Returns nil when the
  /// screen is smaller than `minimumSize`.
  func frame(width: Int, height: Int, screen: (rows: Int, columns: Int)) -> PopoverFrame? {
    guard screen.rows >= Self.minimumSize.height, screen.columns >= Self.minimumSize.width else { return nil }
    let width = min(max(width, Self.minimumSize.width), screen.columns)
    let height = min(max(height, Self.minimumSize.height), screen.rows)
    if let anchor = clampedAnchor(screen), let frame = attached(to: anchor, width: width, height: height, screen: screen) {
      return frame
    }
    return PopoverFrame(
      origin: CellPosition(line: (screen.rows - height) / 2, column: (screen.columns - width) / 2),
      width: width, height: height, arrow: nil)
  }

  private func attached(to anchor: CellPosition, width: Int, height: Int, screen: (rows: Int, columns: Int)) -> PopoverFrame? {
    let wanted = arrowEdge.isVertical ? height : width
    let minimum = arrowEdge.isVertical ? Self.minimumSize.height : Self.minimumSize.width
    let (preferredRoom, otherRoom) = arrowEdge.isVertical ? verticalRoom(anchor, screen) : horizontalRoom(anchor, screen)
    let edge: ArrowEdge
    let length: Int
    if preferredRoom >= wanted {
      (edge, length) = (arrowEdge, wanted)
    } else if otherRoom >= wanted {
      (edge, length) = (arrowEdge.opposite, wanted)
    } else if max(preferredRoom, otherRoom) >= minimum {
      (edge, length) = preferredRoom >= otherRoom ? (arrowEdge, preferredRoom) : (arrowEdge.opposite, otherRoom)
    } else {
      return nil
    }
    switch edge {
    case .top, .bottom:
      let row = edge == .top ? anchor.line + 1 : anchor.line - length
      let column = clamp(anchor.column - width / 2, 0, screen.columns - width)
      let arrowRow = edge == .top ? row : row + length - 1
      let arrowColumn = clamp(anchor.column, column + 1, column + width - 2)
      return PopoverFrame(
        origin: CellPosition(line: row, column: column), width: width, height: length,
        arrow: PopoverFrame.Arrow(edge: edge, position: CellPosition(line: arrowRow, column: arrowColumn)))
    case .leading, .trailing:
      let column = edge == .leading ? anchor.column + 1 : anchor.column - length
      let row = clamp(anchor.line - height / 2, 0, screen.rows - height)
      let arrowColumn = edge == .leading ? column : column + length - 1
      let arrowRow = clamp(anchor.line, row + 1, row + height - 2)
      return PopoverFrame(
        origin: CellPosition(line: row, column: column), width: length, height: height,
        arrow: PopoverFrame.Arrow(edge: edge, position: CellPosition(line: arrowRow, column: arrowColumn)))
    }
  }

  /// Rows below and above the anchor, the preferred side first.
  private func verticalRoom(_ anchor: CellPosition, _ screen: (rows: Int, columns: Int)) -> (Int, Int) {
    let below = screen.rows - anchor.line - 1
    let above = anchor.line
    return arrowEdge == .top ? (below, above) : (above, below)
  }

  /// Columns right and left of the anchor, the preferred side first.
  private func horizontalRoom(_ anchor: CellPosition, _ screen: (rows: Int, columns: Int)) -> (Int, Int) {
    let right = screen.columns - anchor.column - 1
    let left = anchor.column
    return arrowEdge == .leading ? (right, left) : (left, right)
  }

  private func clampedAnchor(_ screen: (rows: Int, columns: Int)) -> CellPosition? {
    anchor.map {
      CellPosition(line: clamp($0.line, 0, screen.rows - 1), column: clamp($0.column, 0, screen.columns - 1))
    }
  }

  private func clamp(_ value: Int, _ low: Int, _ high: Int) -> Int { min(max(value, low), max(high, low)) }
}
