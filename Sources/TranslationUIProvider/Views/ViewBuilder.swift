import TranslationViewTree

/// Builds a list of views from a closure's statements, as SwiftUI's `ViewBuilder`.
@MainActor @resultBuilder
public enum ViewBuilder {
  public static func buildExpression(_ view: some View) -> ViewList { ViewList([view], isExpression: true) }
  public static func buildBlock() -> ViewList { ViewList([]) }
  public static func buildBlock(_ components: ViewList...) -> ViewList {
    ViewList(components.map { $0.isExpression ? $0.elements[0] : $0 })
  }
  public static func buildOptional(_ component: ViewList?) -> ViewList { component ?? ViewList([]) }
  public static func buildEither(first component: ViewList) -> ViewList { component }
  public static func buildEither(second component: ViewList) -> ViewList { component }
  public static func buildArray(_ components: [ViewList]) -> ViewList { ViewList(components) }
  public static func buildLimitedAvailability(_ component: ViewList) -> ViewList { component }
}

/// The views a `ViewBuilder` closure produced, in order.
///
/// Each statement keeps its position in the path of its descendants, and the
/// views of an `if`, `switch` or `for` stay grouped under their statement, so
/// a view keeps its identity (and its `@State`) when a sibling appears or
/// disappears. A list of one view is that view, at the same path.
public struct ViewList: View, PrimitiveView {
  let elements: [any View]
  /// Made by `buildExpression` from a single statement.
  let isExpression: Bool

  init(_ elements: [any View], isExpression: Bool = false) {
    self.elements = elements
    self.isExpression = isExpression
  }

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] {
    if elements.count == 1 { return pass.makeNodes(for: elements[0], at: path) }
    return elements.enumerated().flatMap { index, element in
      pass.makeNodes(for: element, at: "\(path).\(index)")
    }
  }
}
