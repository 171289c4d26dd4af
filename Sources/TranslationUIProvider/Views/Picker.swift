import TranslationViewTree

/// A choice among tagged options, as SwiftUI's `Picker`: drawn as its
/// title and a button per option (`.tag(_:)` on each), the chosen one
/// marked `(•)`, the others `( )`; pressing one sets the selection. Every
/// picker style is drawn this way.
public struct Picker<Label: View, SelectionValue: Hashable, Content: View>: View, PrimitiveView {
  let selection: Binding<SelectionValue>
  let label: Label
  let content: Content

  public init(selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {
    self.selection = selection
    self.content = content()
    self.label = label()
  }

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] {
    let selection = selection
    let outer = pass.picker
    pass.picker = RenderPass.PickerContext(
      selected: AnyHashable(selection.wrappedValue),
      select: { tag in if let value = tag.base as? SelectionValue { selection.wrappedValue = value } })
    defer { pass.picker = outer }
    let options = pass.makeNodes(for: content, at: "\(path).options")
    let title = pass.makeNodes(for: label, at: "\(path).label")
    return [.hstack(alignment: "center", spacing: nil, children: title + options)]
  }
}

extension Picker where Label == Text {
  public init(_ title: some StringProtocol, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content) {
    self.selection = selection
    self.content = content()
    label = Text(title)
  }
}

/// A view with a tag, as `.tag(_:)` makes it: inside a `Picker`, an option.
struct TaggedView<Content: View>: View, PrimitiveView {
  let content: Content
  let tag: AnyHashable

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] {
    guard let picker = pass.picker else { return pass.makeNodes(for: content, at: path) }
    // Options are drawn as options, not inside another picker.
    pass.picker = nil
    defer { pass.picker = picker }
    let label = pass.makeNodes(for: content, at: "\(path).label")
    let tag = tag
    if !pass.isDisabled { pass.actions[path] = { picker.select(tag) } }
    let mark: ViewNode = .text(picker.selected == tag ? "(•)" : "( )")
    return [
      .button(id: path, isEnabled: !pass.isDisabled, label: .hstack(alignment: "center", spacing: nil, children: [mark] + label))
    ]
  }
}

extension View {
  /// The value a `Picker` option stands for.
  public func tag<V: Hashable>(_ tag: V) -> some View { TaggedView(content: self, tag: AnyHashable(tag)) }
}
