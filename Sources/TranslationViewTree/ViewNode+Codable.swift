extension ViewNode: Codable {
  private enum CodingKeys: String, CodingKey {
    case type, alignment, spacing, children, text, title, systemImage, id, enabled, label,
      placeholder, fraction
  }

  private enum Kind: String, Codable {
    case vstack, hstack, text, label, button, textField, spacer, divider, progress
  }

  package init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    switch try c.decode(Kind.self, forKey: .type) {
    case .vstack:
      self = .vstack(
        alignment: try c.decodeIfPresent(String.self, forKey: .alignment) ?? "center",
        spacing: try c.decodeIfPresent(Double.self, forKey: .spacing),
        children: try c.decode([ViewNode].self, forKey: .children))
    case .hstack:
      self = .hstack(
        alignment: try c.decodeIfPresent(String.self, forKey: .alignment) ?? "center",
        spacing: try c.decodeIfPresent(Double.self, forKey: .spacing),
        children: try c.decode([ViewNode].self, forKey: .children))
    case .text:
      self = .text(try c.decode(String.self, forKey: .text))
    case .label:
      self = .label(
        title: try c.decode(String.self, forKey: .title),
        systemImage: try c.decodeIfPresent(String.self, forKey: .systemImage))
    case .button:
      self = .button(
        id: try c.decode(String.self, forKey: .id),
        isEnabled: try c.decodeIfPresent(Bool.self, forKey: .enabled) ?? true,
        label: try c.decode(ViewNode.self, forKey: .label))
    case .textField:
      self = .textField(
        id: try c.decode(String.self, forKey: .id),
        placeholder: try c.decodeIfPresent(String.self, forKey: .placeholder) ?? "",
        text: try c.decode(String.self, forKey: .text),
        isEnabled: try c.decodeIfPresent(Bool.self, forKey: .enabled) ?? true)
    case .spacer:
      self = .spacer
    case .divider:
      self = .divider
    case .progress:
      self = .progress(
        label: try c.decodeIfPresent(String.self, forKey: .label),
        fraction: try c.decodeIfPresent(Double.self, forKey: .fraction))
    }
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
