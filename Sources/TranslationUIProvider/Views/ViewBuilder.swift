import TranslationViewTree

/// Builds a list of views from a closure's statements, as SwiftUI's `ViewBuilder`.
@resultBuilder
public enum ViewBuilder {
  public static func buildExpression(_ view: some View) -> ViewList { ViewList([view]) }
  public static func buildBlock() -> ViewList { ViewList([]) }
  public static func buildBlock(_ components: ViewList...) -> ViewList { ViewList(components) }
  public static func buildOptional(_ component: ViewList?) -> ViewList { component ?? ViewList([]) }
  public static func buildEither(first component: ViewList) -> ViewList { component }
  public static func buildEither(second component: ViewList) -> ViewList { component }
  public static func buildArray(_ components: [ViewList]) -> ViewList { ViewList(components) }
  public static func buildLimitedAvailability(_ component: ViewList) -> ViewList { component }
}

/// The views a `ViewBuilder` closure produced, in order.
///
/// Each element keeps its position in the path of its descendants, so a view
/// inside an `if` keeps its identity (and its `@State`) when a sibling
/// appears or disappears.
public struct ViewList: View, PrimitiveView {
  let elements: [any View]

  init(_ elements: [any View]) { self.elements = elements }

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] {
    elements.enumerated().flatMap { index, element in
      pass.makeNodes(for: element, at: "\(path).\(index)")
    }
  }
}
