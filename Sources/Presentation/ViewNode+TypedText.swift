import TranslationViewTree

extension ViewNode {
  /// This node with the fields in `typed` showing the text typed into them
  /// (their edits not answered yet) instead of the text the provider sent.
  func showing(typed: [String: String]) -> ViewNode {
    switch self {
    case .textField(let id, let placeholder, let text, let isEnabled):
      return .textField(id: id, placeholder: placeholder, text: typed[id] ?? text, isEnabled: isEnabled)
    case .vstack(let alignment, let spacing, let children):
      return .vstack(alignment: alignment, spacing: spacing, children: children.map { $0.showing(typed: typed) })
    case .hstack(let alignment, let spacing, let children):
      return .hstack(alignment: alignment, spacing: spacing, children: children.map { $0.showing(typed: typed) })
    case .button(let id, let isEnabled, let label):
      return .button(id: id, isEnabled: isEnabled, label: label.showing(typed: typed))
    case .scroll(let children):
      return .scroll(children: children.map { $0.showing(typed: typed) })
    case .styled(let style, let node):
      return .styled(style, node.showing(typed: typed))
    case .unknown(let type, let children):
      return .unknown(type: type, children: children.map { $0.showing(typed: typed) })
    case .text, .label, .spacer, .divider, .progress, .image:
      return self
    }
  }
}
