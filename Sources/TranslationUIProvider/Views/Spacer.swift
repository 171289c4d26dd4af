import TranslationViewTree

/// Flexible empty space, as SwiftUI's `Spacer`.
public struct Spacer: View, PrimitiveView {
  public init(minLength: Double? = nil) {}

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] { [.spacer] }
}

/// A separating line, as SwiftUI's `Divider`.
public struct Divider: View, PrimitiveView {
  public init() {}

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] { [.divider] }
}
