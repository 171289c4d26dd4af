/// One node of a view tree.
///
/// The cases are the primitives of the SDK's view layer; composite views of a
/// provider are flattened into them before they cross the ABI.
package indirect enum ViewNode: Equatable, Sendable {
  /// A vertical stack; `alignment` is `leading`, `center` or `trailing`.
  case vstack(alignment: String, spacing: Double?, children: [ViewNode])
  /// A horizontal stack; `alignment` is `top`, `center` or `bottom`.
  case hstack(alignment: String, spacing: Double?, children: [ViewNode])
  /// Static text.
  case text(String)
  /// A title with an icon name (SF Symbols naming, as Apple's `Label`).
  case label(title: String, systemImage: String?)
  /// A control that performs an action when pressed.
  case button(id: String, isEnabled: Bool, label: ViewNode)
  /// An editable single-line text field.
  case textField(id: String, placeholder: String, text: String, isEnabled: Bool)
  /// Flexible empty space.
  case spacer
  /// A separating line.
  case divider
  /// Work in progress; `fraction` in 0...1 when known.
  case progress(label: String?, fraction: Double?)
  /// Children top to bottom in a region that scrolls when they do not fit (since ABI 2.0).
  case scroll(children: [ViewNode])
  /// A symbol by its SF Symbols name (since ABI 2.0); hosts show a readable stand-in.
  case image(systemName: String)
  /// A node with a look (`style`) applied (since ABI 2.0): in JSON, the
  /// node's own object with a `style` key added.
  case styled(ViewStyle, ViewNode)
  /// A node of a type this host does not know, from a provider built for a
  /// later minor: drawn as nothing, its children (if any) as a vertical stack.
  case unknown(type: String, children: [ViewNode])

  /// The text a person sees on this node and its descendants, joined by spaces.
  package var visibleText: String {
    switch self {
    case .text(let text): text
    case .label(let title, _): title
    case .button(_, _, let label): label.visibleText
    case .textField(_, let placeholder, let text, _): text.isEmpty ? placeholder : text
    case .vstack(_, _, let children), .hstack(_, _, let children):
      children.map(\.visibleText).filter { !$0.isEmpty }.joined(separator: " ")
    case .progress(let label, _): label ?? ""
    case .scroll(let children), .unknown(_, let children):
      children.map(\.visibleText).filter { !$0.isEmpty }.joined(separator: " ")
    case .styled(_, let node): node.visibleText
    case .spacer, .divider, .image: ""
    }
  }

  /// The direct children of a stack or scroll region, a button's label, a
  /// styled node's node; empty for every other node.
  package var children: [ViewNode] {
    switch self {
    case .vstack(_, _, let children), .hstack(_, _, let children): children
    case .button(_, _, let label): [label]
    case .scroll(let children), .unknown(_, let children): children
    case .styled(_, let node): [node]
    case .text, .label, .textField, .spacer, .divider, .progress, .image: []
    }
  }

  /// Calls `body` on this node and every descendant, depth first, in order.
  package func forEach(_ body: (ViewNode) -> Void) {
    body(self)
    for child in children { child.forEach(body) }
  }
}
