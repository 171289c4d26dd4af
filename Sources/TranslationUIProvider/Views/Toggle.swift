import TranslationViewTree

/// A switch, as SwiftUI's `Toggle`: drawn as a button whose label starts
/// with `[x]` or `[ ]`; pressing it flips the binding.
public struct Toggle<Label: View>: View, PrimitiveView {
  let isOn: Binding<Bool>
  let label: Label

  public init(isOn: Binding<Bool>, @ViewBuilder label: () -> Label) {
    self.isOn = isOn
    self.label = label()
  }

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] {
    let isOn = isOn
    let mark: ViewNode = .text(isOn.wrappedValue ? "[x]" : "[ ]")
    let label = pass.makeNodes(for: label, at: "\(path).label")
    if !pass.isDisabled { pass.actions[path] = { isOn.wrappedValue.toggle() } }
    return [
      .button(id: path, isEnabled: !pass.isDisabled, label: .hstack(alignment: "center", spacing: nil, children: [mark] + label))
    ]
  }
}

extension Toggle where Label == Text {
  /// A switch with a text label.
  public init(_ title: some StringProtocol, isOn: Binding<Bool>) {
    self.isOn = isOn
    label = Text(title)
  }
}
