/// How a run of text is drawn. Colour is one attribute among others
/// (`accent`), so `NO_COLOR` drops it and keeps the rest.
struct TextStyle: OptionSet, Hashable, Sendable {
  let rawValue: UInt8

  static let bold = TextStyle(rawValue: 1 << 0)
  /// Disabled controls and placeholders.
  static let dim = TextStyle(rawValue: 1 << 1)
  /// The focused control.
  static let reverse = TextStyle(rawValue: 1 << 2)
  static let underline = TextStyle(rawValue: 1 << 3)
  /// The popover's frame and arrow, in the accent colour where colours are used.
  static let accent = TextStyle(rawValue: 1 << 4)
}
