import TranslationViewTree

/// A control that performs an action, as SwiftUI's `Button`.
public struct Button<Label: View>: View, PrimitiveView {
  let action: () -> Void
  let label: Label

  /// A button whose label is any view.
  public init(action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
    self.init(action: action, label: label())
  }

  init(action: @escaping () -> Void, label: Label) {
    self.action = action
    self.label = label
  }

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] {
    let labelNodes = pass.makeNodes(for: label, at: "\(path).label")
    let labelNode: ViewNode =
      labelNodes.count == 1 ? labelNodes[0] : .hstack(alignment: "center", spacing: nil, children: labelNodes)
    if !pass.isDisabled { pass.actions[path] = action }
    return [.button(id: path, isEnabled: !pass.isDisabled, label: labelNode)]
  }
}

extension Button where Label == Text {
  /// A button with a text label, shown as it is (a literal is a
  /// `LocalizedStringKey`, as in SwiftUI).
  @_disfavoredOverload
  public init(_ title: some StringProtocol, action: @escaping () -> Void) {
    self.init(action: action, label: Text(title))
  }

  /// A button whose label is a literal, localized as `Text`'s.
  public init(_ titleKey: LocalizedStringKey, action: @escaping () -> Void) {
    self.init(action: action, label: Text(titleKey))
  }
}

/// What a button does, as SwiftUI's `ButtonRole`: look-only (a host draws
/// every button alike; a destructive one is not confirmed).
public struct ButtonRole: Hashable, Sendable {
  let name: String
  public static let cancel = ButtonRole(name: "cancel")
  public static let destructive = ButtonRole(name: "destructive")
}

extension Button {
  /// A button with a role (look-only) whose label is any view.
  public init(role: ButtonRole?, action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
    self.init(action: action, label: label())
  }
}

extension Button where Label == Text {
  /// A button with a role (look-only) and a text label.
  @_disfavoredOverload
  public init(_ title: some StringProtocol, role: ButtonRole?, action: @escaping () -> Void) {
    self.init(action: action, label: Text(title))
  }

  /// A button with a role (look-only) whose label is a literal, localized as `Text`'s.
  public init(_ titleKey: LocalizedStringKey, role: ButtonRole?, action: @escaping () -> Void) {
    self.init(action: action, label: Text(titleKey))
  }
}
