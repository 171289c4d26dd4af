import Presentation

/// Where the popover lands on the screen, borders included.
struct PopoverFrame: Equatable, Sendable {
  /// The arrow toward the anchor: the side it is on, and its cell on that border.
  struct Arrow: Equatable, Sendable {
    var edge: ArrowEdge
    var position: CellPosition
  }

  /// The top-left corner of the border.
  var origin: CellPosition
  var width: Int
  var height: Int
  /// Nil without an anchor.
  var arrow: Arrow?
}
