/// A GTK 4 widget a view-tree node maps to, as a value: what
/// `WidgetFactory` builds, and what the unit tests check without a display.
package indirect enum Widget: Equatable, Sendable {
  /// A `GtkBox`; `alignment` places children across the box's axis.
  case box(Orientation, spacing: Int, alignment: Alignment, children: [Widget])
  /// A wrapping `GtkLabel`.
  case label(String, style: LabelStyle)
  /// A `GtkImage` from the icon theme beside a label (SwiftUI's `Label`).
  case iconLabel(iconName: String?, title: String)
  /// A `GtkButton` with its content; `id` is the provider's control id.
  case button(id: String, isSensitive: Bool, content: Widget)
  /// A `GtkEntry`.
  case entry(id: String, placeholder: String, text: String, isSensitive: Bool)
  /// An empty box that expands along the enclosing box's axis (`Spacer`).
  case spacer
  /// A `GtkSeparator` across the enclosing box's axis.
  case separator(Orientation)
  /// A `GtkSpinner` (unknown fraction) or `GtkProgressBar`, with an optional label.
  case progress(label: String?, fraction: Double?)
  /// A `GtkImage` from the icon theme (`Image(systemName:)`), or the
  /// symbol's name in brackets when no icon stands for it.
  case image(iconName: String?, systemName: String)
  /// A widget with a look applied.
  case styled(WidgetStyle, Widget)

  package enum Orientation: Equatable, Sendable { case horizontal, vertical }
  package enum Alignment: Equatable, Sendable { case start, center, end }
  package enum LabelStyle: Equatable, Sendable { case body, title }

  /// The ids of the controls a person can focus, in the order Tab visits them.
  package var focusableIDs: [String] {
    switch self {
    case .button(let id, true, _), .entry(let id, _, _, true): [id]
    case .box(_, _, _, let children): children.flatMap(\.focusableIDs)
    case .styled(_, let widget): widget.focusableIDs
    case .button(_, false, _), .entry(_, _, _, false), .label, .iconLabel, .spacer, .separator, .progress, .image: []
    }
  }
}
