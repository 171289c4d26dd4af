/// Where the popover lands on the screen, borders included.
package struct PopoverFrame: Equatable, Sendable {
  /// The top-left corner of the border.
  package var origin: CellPosition
  package var width: Int
  package var height: Int
  /// The side carrying the arrow and the arrow's cell on that border; nil without an anchor.
  package var arrow: (edge: ArrowEdge, position: CellPosition)?

  package static func == (lhs: PopoverFrame, rhs: PopoverFrame) -> Bool {
    lhs.origin == rhs.origin && lhs.width == rhs.width && lhs.height == rhs.height
      && lhs.arrow?.edge == rhs.arrow?.edge && lhs.arrow?.position == rhs.arrow?.position
  }
}
