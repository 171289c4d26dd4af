/// Where a line sits across the width it is given (a `VStack`'s alignment).
enum HorizontalAlignment: Sendable {
  case leading, center, trailing

  /// The alignment a view tree names (`leading`, `center`, `trailing`).
  init(_ name: String) {
    switch name {
    case "center": self = .center
    case "trailing": self = .trailing
    default: self = .leading
    }
  }

  /// Columns before a line placed with `room` columns to spare.
  func offset(room: Int) -> Int {
    switch self {
    case .leading: 0
    case .center: room / 2
    case .trailing: room
    }
  }
}
