/// The side of the popover whose arrow points at the anchor (Apple's
/// `arrowEdge`): `top` puts the popover below the anchor, `bottom` above
/// it, `leading` to its right and `trailing` to its left.
package enum ArrowEdge: String, CaseIterable, Sendable {
  case top, bottom, leading, trailing

  /// The side across from this one, used when this one has no room.
  package var opposite: ArrowEdge {
    switch self {
    case .top: .bottom
    case .bottom: .top
    case .leading: .trailing
    case .trailing: .leading
    }
  }

  package var isVertical: Bool { self == .top || self == .bottom }

  /// The arrow drawn on this side, pointing out of the popover.
  package func glyph(unicode: Bool) -> String {
    switch self {
    case .top: unicode ? "▲" : "^"
    case .bottom: unicode ? "▼" : "v"
    case .leading: unicode ? "◀" : "<"
    case .trailing: unicode ? "▶" : ">"
    }
  }
}
