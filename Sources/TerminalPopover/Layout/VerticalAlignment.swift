/// Where a child sits across the height of an `HStack` (its alignment).
enum VerticalAlignment: Sendable {
  case top, center, bottom

  /// The alignment a view tree names (`top`, `center`, `bottom`).
  init(_ name: String) {
    switch name {
    case "top": self = .top
    case "bottom": self = .bottom
    default: self = .center
    }
  }

  /// Lines above a child with `room` lines to spare.
  func offset(room: Int) -> Int {
    switch self {
    case .top: 0
    case .center: room / 2
    case .bottom: room
    }
  }
}
