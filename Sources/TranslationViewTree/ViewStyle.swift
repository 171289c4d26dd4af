/// How a node looks, from the SDK's look-only modifiers (`.padding`,
/// `.font`, `.bold()`, `.foregroundStyle`, `.frame(maxWidth:)`): the view
/// tree's optional `style` key (since ABI 2.0). A host draws what it can and
/// ignores the rest; nothing in a style changes what a person can do.
package struct ViewStyle: Codable, Equatable, Sendable {
  /// Space around the node, in points, per edge.
  package struct Insets: Codable, Equatable, Sendable {
    package var top: Double
    package var leading: Double
    package var bottom: Double
    package var trailing: Double

    package init(top: Double, leading: Double, bottom: Double, trailing: Double) {
      (self.top, self.leading, self.bottom, self.trailing) = (top, leading, bottom, trailing)
    }
  }

  /// The text styles of SwiftUI's `Font`, in the order of their size.
  package static let fonts: Set = [
    "largeTitle", "title", "title2", "title3", "headline", "subheadline", "body", "callout", "footnote", "caption",
    "caption2",
  ]

  package var padding: Insets?
  /// One of `fonts`.
  package var font: String?
  package var bold: Bool?
  package var italic: Bool?
  /// `primary`, `secondary`, `tertiary`, or a colour name (`red`, `blue`, `accentColor`, …).
  package var foregroundStyle: String?
  /// Points, or infinity (written `"infinity"`): take all the width (height) offered.
  package var maxWidth: Double?
  package var maxHeight: Double?

  package init() {}

  private enum CodingKeys: String, CodingKey {
    case padding, font, bold, italic, foregroundStyle, maxWidth, maxHeight
  }

  package init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    padding = try c.decodeIfPresent(Insets.self, forKey: .padding)
    font = try c.decodeIfPresent(String.self, forKey: .font)
    bold = try c.decodeIfPresent(Bool.self, forKey: .bold)
    italic = try c.decodeIfPresent(Bool.self, forKey: .italic)
    foregroundStyle = try c.decodeIfPresent(String.self, forKey: .foregroundStyle)
    maxWidth = try Self.decodeLength(c, .maxWidth)
    maxHeight = try Self.decodeLength(c, .maxHeight)
  }

  package func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encodeIfPresent(padding, forKey: .padding)
    try c.encodeIfPresent(font, forKey: .font)
    try c.encodeIfPresent(bold, forKey: .bold)
    try c.encodeIfPresent(italic, forKey: .italic)
    try c.encodeIfPresent(foregroundStyle, forKey: .foregroundStyle)
    try Self.encodeLength(&c, maxWidth, .maxWidth)
    try Self.encodeLength(&c, maxHeight, .maxHeight)
  }

  /// Merges `outer` (a modifier applied later, further out) into this style:
  /// paddings add up, the inner value of anything else wins, as in SwiftUI.
  package func merged(into outer: ViewStyle) -> ViewStyle {
    var merged = self
    if let extra = outer.padding {
      let inner = padding ?? Insets(top: 0, leading: 0, bottom: 0, trailing: 0)
      merged.padding = Insets(
        top: inner.top + extra.top, leading: inner.leading + extra.leading, bottom: inner.bottom + extra.bottom,
        trailing: inner.trailing + extra.trailing)
    }
    merged.font = font ?? outer.font
    merged.bold = bold ?? outer.bold
    merged.italic = italic ?? outer.italic
    merged.foregroundStyle = foregroundStyle ?? outer.foregroundStyle
    merged.maxWidth = maxWidth ?? outer.maxWidth
    merged.maxHeight = maxHeight ?? outer.maxHeight
    return merged
  }

  private static func decodeLength(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Double? {
    if (try? c.decodeIfPresent(String.self, forKey: key)) == "infinity" { return .infinity }
    return try c.decodeIfPresent(Double.self, forKey: key)
  }

  private static func encodeLength(_ c: inout KeyedEncodingContainer<CodingKeys>, _ value: Double?, _ key: CodingKeys) throws {
    guard let value else { return }
    if value == .infinity { try c.encode("infinity", forKey: key) } else { try c.encode(value, forKey: key) }
  }
}
