extension ViewNode: Codable {
  private enum CodingKeys: String, CodingKey {
    case type, alignment, spacing, children, text, title, systemImage, id, enabled, label,
      placeholder, fraction, systemName, style
  }

  private enum Kind: String, Codable {
    case vstack, hstack, text, label, button, textField, spacer, divider, progress, scroll, image
  }

  package init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let node = try Self.decodeNode(c)
    // A style that does not decode is a look lost, not a broken tree: hosts
    // ignore what they cannot draw, and a later minor may widen a key.
    if let style = try? c.decodeIfPresent(ViewStyle.self, forKey: .style) {
      self = .styled(style, node)
    } else {
      self = node
    }
  }

  private static func decodeNode(_ c: KeyedDecodingContainer<CodingKeys>) throws -> ViewNode {
    let type = try c.decode(String.self, forKey: .type)
    guard let kind = Kind(rawValue: type) else {
      return .unknown(type: type, children: try c.decodeIfPresent([ViewNode].self, forKey: .children) ?? [])
    }
    let node: ViewNode
    switch kind {
    case .vstack:
      node = .vstack(
        alignment: try c.decodeIfPresent(String.self, forKey: .alignment) ?? "center",
        spacing: try c.decodeIfPresent(Double.self, forKey: .spacing),
        children: try c.decode([ViewNode].self, forKey: .children))
    case .hstack:
      node = .hstack(
        alignment: try c.decodeIfPresent(String.self, forKey: .alignment) ?? "center",
        spacing: try c.decodeIfPresent(Double.self, forKey: .spacing),
        children: try c.decode([ViewNode].self, forKey: .children))
    case .text:
      node = .text(try c.decode(String.self, forKey: .text))
    case .label:
      node = .label(
        title: try c.decode(String.self, forKey: .title),
        systemImage: try c.decodeIfPresent(String.self, forKey: .systemImage))
    case .button:
      node = .button(
        id: try c.decode(String.self, forKey: .id),
        isEnabled: try c.decodeIfPresent(Bool.self, forKey: .enabled) ?? true,
        label: try c.decode(ViewNode.self, forKey: .label))
    case .textField:
      node = .textField(
        id: try c.decode(String.self, forKey: .id),
        placeholder: try c.decodeIfPresent(String.self, forKey: .placeholder) ?? "",
        text: try c.decode(String.self, forKey: .text),
        isEnabled: try c.decodeIfPresent(Bool.self, forKey: .enabled) ?? true)
    case .spacer:
      node = .spacer
    case .divider:
      node = .divider
    case .progress:
      node = .progress(
        label: try c.decodeIfPresent(String.self, forKey: .label),
        fraction: try c.decodeIfPresent(Double.self, forKey: .fraction))
    case .scroll:
      node = .scroll(children: try c.decode([ViewNode].self, forKey: .children))
    case .image:
      node = .image(systemName: try c.decode(String.self, forKey: .systemName))
    }
    return node
  }

  package func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .vstack(let alignment, let spacing, let children):
      try c.encode(Kind.vstack, forKey: .type)
      try encodeStack(&c, alignment, spacing, children)
    case .hstack(let alignment, let spacing, let children):
      try c.encode(Kind.hstack, forKey: .type)
      try encodeStack(&c, alignment, spacing, children)
    case .text(let text):
      try c.encode(Kind.text, forKey: .type)
      try c.encode(text, forKey: .text)
    case .label(let title, let systemImage):
      try c.encode(Kind.label, forKey: .type)
      try c.encode(title, forKey: .title)
      try c.encodeIfPresent(systemImage, forKey: .systemImage)
    case .button(let id, let isEnabled, let label):
      try c.encode(Kind.button, forKey: .type)
      try c.encode(id, forKey: .id)
      try c.encode(isEnabled, forKey: .enabled)
      try c.encode(label, forKey: .label)
    case .textField(let id, let placeholder, let text, let isEnabled):
      try c.encode(Kind.textField, forKey: .type)
      try c.encode(id, forKey: .id)
      try c.encode(placeholder, forKey: .placeholder)
      try c.encode(text, forKey: .text)
      try c.encode(isEnabled, forKey: .enabled)
    case .spacer:
      try c.encode(Kind.spacer, forKey: .type)
    case .divider:
      try c.encode(Kind.divider, forKey: .type)
    case .progress(let label, let fraction):
      try c.encode(Kind.progress, forKey: .type)
      try c.encodeIfPresent(label, forKey: .label)
      try c.encodeIfPresent(fraction, forKey: .fraction)
    case .scroll(let children):
      try c.encode(Kind.scroll, forKey: .type)
      try c.encode(children, forKey: .children)
    case .image(let systemName):
      try c.encode(Kind.image, forKey: .type)
      try c.encode(systemName, forKey: .systemName)
    case .styled(let style, let node):
      // The node's own keys, and `style` beside them.
      try node.encode(to: encoder)
      try c.encode(style, forKey: .style)
    case .unknown(let type, let children):
      try c.encode(type, forKey: .type)
      if !children.isEmpty { try c.encode(children, forKey: .children) }
    }
  }

  private func encodeStack(
    _ c: inout KeyedEncodingContainer<CodingKeys>, _ alignment: String, _ spacing: Double?,
    _ children: [ViewNode]
  ) throws {
    try c.encode(alignment, forKey: .alignment)
    try c.encodeIfPresent(spacing, forKey: .spacing)
    try c.encode(children, forKey: .children)
  }
}
