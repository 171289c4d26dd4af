/// A side of the popover: the counterpart of SwiftUI's `Edge`, for `arrowEdge`.
public enum Edge: Equatable, Sendable, CaseIterable {
  case top, leading, bottom, trailing
}
