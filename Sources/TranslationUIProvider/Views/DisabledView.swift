import TranslationViewTree

extension View {
  /// Disables the controls in this view when `disabled` is true, as SwiftUI's
  /// `.disabled(_:)`: they are drawn dimmed and cannot be pressed or edited.
  public func disabled(_ disabled: Bool) -> some View {
    DisabledView(content: self, isDisabled: disabled)
  }
}

/// A view whose controls are disabled, the result of `.disabled(_:)`.
struct DisabledView<Content: View>: View, PrimitiveView {
  let content: Content
  let isDisabled: Bool

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] {
    let outer = pass.isDisabled
    pass.isDisabled = outer || isDisabled
    defer { pass.isDisabled = outer }
    return pass.makeNodes(for: content, at: path)
  }
}
