import TranslationViewTree

/// Work in progress, as SwiftUI's `ProgressView`.
public struct ProgressView: View, PrimitiveView {
  let title: String?
  let fraction: Double?

  /// An indeterminate progress indicator.
  public init() {
    title = nil
    fraction = nil
  }

  /// An indeterminate progress indicator with a title.
  public init(_ title: some StringProtocol) {
    self.title = String(title)
    fraction = nil
  }

  /// A determinate progress indicator; `value` is clamped to `0...total`.
  public init(value: Double?, total: Double = 1) {
    title = nil
    fraction = value.map { total > 0 ? min(max($0 / total, 0), 1) : 0 }
  }

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] {
    [.progress(label: title, fraction: fraction)]
  }
}
