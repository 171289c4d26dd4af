import TranslationViewTree

/// Maps a provider's view tree to GTK widgets, as SwiftUI maps views to
/// UIKit's: stacks to boxes, text to wrapping labels, a `Label`'s SF Symbol
/// to the nearest freedesktop icon. Pure, so tests need no display.
package enum WidgetPlan {
  /// The spacing of a stack that names none (SwiftUI's default is about 8 points).
  static let defaultSpacing = 8

  /// The widget for `node` inside a box laid out along `axis`.
  package static func widget(for node: ViewNode, along axis: Widget.Orientation = .vertical) -> Widget {
    switch node {
    case .vstack(let alignment, let spacing, let children):
      .box(
        .vertical, spacing: pixels(spacing), alignment: Self.alignment(alignment),
        children: children.map { widget(for: $0, along: .vertical) })
    case .hstack(let alignment, let spacing, let children):
      .box(
        .horizontal, spacing: pixels(spacing), alignment: Self.alignment(alignment),
        children: children.map { widget(for: $0, along: .horizontal) })
    case .text(let text):
      .label(text, style: .body)
    case .label(let title, let systemImage):
      .iconLabel(iconName: systemImage.flatMap(SymbolIcon.name(for:)), title: title)
    case .button(let id, let isEnabled, let label):
      .button(id: id, isSensitive: isEnabled, content: widget(for: label, along: .horizontal))
    case .textField(let id, let placeholder, let text, let isEnabled):
      .entry(id: id, placeholder: placeholder, text: text, isSensitive: isEnabled)
    case .spacer:
      .spacer
    case .divider:
      // A divider in a stack crosses the stack's axis, as SwiftUI's does.
      .separator(axis == .vertical ? .horizontal : .vertical)
    case .progress(let label, let fraction):
      .progress(label: label, fraction: fraction.map { min(max($0, 0), 1) })
    case .image(let systemName):
      .image(iconName: SymbolIcon.name(for: systemName), systemName: systemName)
    case .styled(let style, let node):
      .styled(WidgetStyle(style), widget(for: node, along: axis))
    // The popover's content scrolls already; a node from a later ABI minor
    // shows its children, as the tree's contract says.
    case .scroll(let children), .unknown(_, let children):
      .box(
        .vertical, spacing: defaultSpacing, alignment: .start,
        children: children.map { widget(for: $0, along: .vertical) })
    }
  }

  /// A stack's spacing in pixels: points are pixels at scale 1, negative
  /// and absurd values are clamped, nil is the default.
  static func pixels(_ spacing: Double?) -> Int {
    guard let spacing, spacing.isFinite else { return defaultSpacing }
    return Int(min(max(spacing, 0), 64).rounded())
  }

  /// `leading`/`top` → start, `trailing`/`bottom` → end, anything else centred.
  static func alignment(_ name: String) -> Widget.Alignment {
    switch name {
    case "leading", "top": .start
    case "trailing", "bottom": .end
    default: .center
    }
  }
}
