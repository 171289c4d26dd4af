/// Where the popover lands on the screen, borders included.
package struct PopoverFrame: Equatable, Sendable {
  /// The arrow toward the anchor: the side it is on, and its cell on that border.
  package struct Arrow: Equatable, Sendable {
    package var edge: ArrowEdge
    package var position: CellPosition
  }

  /// The top-left corner of the border.
  package var origin: CellPosition
  package var width: Int
  package var height: Int
  /// Nil without an anchor.
  package var arrow: Arrow?
}
