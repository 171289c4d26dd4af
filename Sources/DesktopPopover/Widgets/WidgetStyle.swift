import TranslationViewTree

/// A look applied to a widget, from a view tree's `style`: margins in
/// pixels and style classes of the popover's style sheet. What GTK cannot
/// show from a style (a colour name it does not know, `maxHeight`) is left
/// out: looks never change what a person can do.
package struct WidgetStyle: Equatable, Sendable {
  /// Top, leading, bottom, trailing, in pixels.
  package var margins: [Int]?
  /// Classes of `GtkSession.styleSheet`: `th-font-<text style>`, `th-bold`,
  /// `th-italic`, `dim-label` (secondary and tertiary), `th-color-<name>`.
  package var classes: [String]
  /// Whether the widget takes the width it is offered (`maxWidth: .infinity`).
  package var fillsWidth: Bool

  package init(margins: [Int]? = nil, classes: [String] = [], fillsWidth: Bool = false) {
    self.margins = margins
    self.classes = classes
    self.fillsWidth = fillsWidth
  }

  /// The colours the style sheet names, as SwiftUI's standard colours.
  static let colours: Set = [
    "red", "orange", "yellow", "green", "mint", "teal", "cyan", "blue", "indigo", "purple", "pink",
    "brown", "gray", "accentColor",
  ]

  package init(_ style: ViewStyle) {
    margins = style.padding.map { insets in
      [insets.top, insets.leading, insets.bottom, insets.trailing].map { Int(min(max($0.isFinite ? $0 : 0, 0), 64).rounded()) }
    }
    classes = []
    if let font = style.font, ViewStyle.fonts.contains(font) { classes.append("th-font-" + font) }
    if style.bold == true { classes.append("th-bold") }
    if style.italic == true { classes.append("th-italic") }
    switch style.foregroundStyle {
    case "secondary"?, "tertiary"?: classes.append("dim-label")
    case let colour? where Self.colours.contains(colour): classes.append("th-color-" + colour)
    default: break
    }
    fillsWidth = style.maxWidth == .infinity
  }
}
