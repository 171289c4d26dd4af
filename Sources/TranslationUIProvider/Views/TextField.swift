import TranslationViewTree

/// An editable line of text, as SwiftUI's `TextField`.
public struct TextField: View, PrimitiveView {
  let title: String
  let text: Binding<String>

  /// A field showing `title` as its placeholder and editing `text`.
  public init(_ title: some StringProtocol, text: Binding<String>) {
    self.title = String(title)
    self.text = text
  }

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] {
    if !pass.isDisabled { pass.fields[path] = text }
    return [.textField(id: path, placeholder: title, text: text.wrappedValue, isEnabled: !pass.isDisabled)]
  }
}
