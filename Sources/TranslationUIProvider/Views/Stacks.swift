import TranslationViewTree

/// How the children of a `VStack` line up across its width.
public struct HorizontalAlignment: Equatable, Sendable {
  let name: String
  public static let leading = HorizontalAlignment(name: "leading")
  public static let center = HorizontalAlignment(name: "center")
  public static let trailing = HorizontalAlignment(name: "trailing")
}

/// How the children of an `HStack` line up across its height.
public struct VerticalAlignment: Equatable, Sendable {
  let name: String
  public static let top = VerticalAlignment(name: "top")
  public static let center = VerticalAlignment(name: "center")
  public static let bottom = VerticalAlignment(name: "bottom")
}

/// Children arranged top to bottom, as SwiftUI's `VStack`.
public struct VStack<Content: View>: View, PrimitiveView {
  let alignment: HorizontalAlignment
  let spacing: Double?
  let content: Content

  public init(alignment: HorizontalAlignment = .center, spacing: Double? = nil, @ViewBuilder content: () -> Content) {
    self.alignment = alignment
    self.spacing = spacing
    self.content = content()
  }

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] {
    [.vstack(alignment: alignment.name, spacing: spacing, children: pass.makeNodes(for: content, at: path))]
  }
}

/// Children arranged leading to trailing, as SwiftUI's `HStack`.
public struct HStack<Content: View>: View, PrimitiveView {
  let alignment: VerticalAlignment
  let spacing: Double?
  let content: Content

  public init(alignment: VerticalAlignment = .center, spacing: Double? = nil, @ViewBuilder content: () -> Content) {
    self.alignment = alignment
    self.spacing = spacing
    self.content = content()
  }

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] {
    [.hstack(alignment: alignment.name, spacing: spacing, children: pass.makeNodes(for: content, at: path))]
  }
}
