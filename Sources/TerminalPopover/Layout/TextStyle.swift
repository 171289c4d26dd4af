/// How a run of text is drawn. Colour is one attribute among others
/// (`accent`), so `NO_COLOR` drops it and keeps the rest.
package struct TextStyle: OptionSet, Hashable, Sendable {
  package let rawValue: UInt8
  package init(rawValue: UInt8) { self.rawValue = rawValue }

  package static let bold = TextStyle(rawValue: 1 << 0)
  /// Disabled controls and placeholders.
  package static let dim = TextStyle(rawValue: 1 << 1)
  /// The focused control.
  package static let reverse = TextStyle(rawValue: 1 << 2)
  package static let underline = TextStyle(rawValue: 1 << 3)
  /// The popover's frame and arrow, in the accent colour where colours are used.
  package static let accent = TextStyle(rawValue: 1 << 4)
}
