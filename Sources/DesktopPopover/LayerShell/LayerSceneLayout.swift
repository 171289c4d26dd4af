import Presentation

/// The popover's content laid out in pixels for the layer surface, which
/// has no toolkit: the widgets a view tree maps to (`WidgetPlan`) as
/// rectangles to paint and to hit, measured as GTK lays them out (boxes
/// with spacing and alignment, labels wrapped at the width they get,
/// buttons padded around their content). Pure but for the text's size,
/// which `measure` gives (Pango in `LayerScenePainter`, fixed in tests).
struct LayerSceneLayout: Equatable {
  /// How text looks: its size relative to the body font, weight, slant, colour.
  struct TextStyle: Equatable {
    var scale = 1.0
    var bold = false
    var italic = false
    var dim = false
    /// A named colour of the style sheet (`red`, `accentColor`), nil: the theme's.
    var colour: String?
  }

  enum Item: Equatable {
    /// Text, its top-left corner at the frame's, wrapped at `wrapWidth`.
    case text(String, style: TextStyle, frame: ScreenRect, wrapWidth: Int)
    /// A button's face (its content follows as items of its own).
    case button(id: String, isEnabled: Bool, frame: ScreenRect)
    /// A text field and what it shows.
    case field(id: String, text: String, placeholder: String, isEnabled: Bool, frame: ScreenRect)
    case separator(ScreenRect)
    /// A bar (`fraction`) or, when nil, a spinner.
    case progress(fraction: Double?, frame: ScreenRect)
  }

  /// Measures `text` in `style`, wrapped at `wrapWidth` pixels.
  typealias Measure = (_ text: String, _ style: TextStyle, _ wrapWidth: Int) -> (width: Int, height: Int)

  static let buttonPadding = (horizontal: 12, vertical: 6)
  static let buttonMinimumHeight = 30
  static let fieldHeight = 32
  static let fieldMinimumWidth = 200
  static let spinnerSize = 16

  var items: [Item]
  var width: Int
  var height: Int

  /// The control (button or field) at `x`, `y`, if any, and whether it is enabled.
  func control(atX x: Int, y: Int) -> (id: String, isEnabled: Bool)? {
    let point = ScreenPoint(x: x, y: y)
    for item in items.reversed() {
      switch item {
      case .button(let id, let isEnabled, let frame) where frame.contains(point): return (id, isEnabled)
      case .field(let id, _, _, let isEnabled, let frame) where frame.contains(point): return (id, isEnabled)
      default: continue
      }
    }
    return nil
  }

  /// The frame of control `id`.
  func frame(of id: String) -> ScreenRect? {
    for item in items {
      switch item {
      case .button(id, _, let frame), .field(id, _, _, _, let frame): return frame
      default: continue
      }
    }
    return nil
  }

  /// `widget` laid out in a column `width` pixels wide, its top-left corner at 0, 0.
  static func layout(_ widget: Widget, width: Int, measure: @escaping Measure) -> LayerSceneLayout {
    let laid = Builder(measure: measure).lay(widget, available: max(width, 1), style: TextStyle(), along: .vertical)
    return LayerSceneLayout(items: laid.items, width: laid.width, height: laid.height)
  }

  /// The layout moved by `dx`, `dy`.
  func offset(by dx: Int, _ dy: Int) -> LayerSceneLayout {
    LayerSceneLayout(items: items.map { Self.moved($0, dx, dy) }, width: width, height: height)
  }

  fileprivate static func moved(_ item: Item, _ dx: Int, _ dy: Int) -> Item {
    func move(_ rect: ScreenRect) -> ScreenRect {
      ScreenRect(x: rect.x + dx, y: rect.y + dy, width: rect.width, height: rect.height)
    }
    switch item {
    case .text(let text, let style, let frame, let wrap): return .text(text, style: style, frame: move(frame), wrapWidth: wrap)
    case .button(let id, let enabled, let frame): return .button(id: id, isEnabled: enabled, frame: move(frame))
    case .field(let id, let text, let placeholder, let enabled, let frame):
      return .field(id: id, text: text, placeholder: placeholder, isEnabled: enabled, frame: move(frame))
    case .separator(let frame): return .separator(move(frame))
    case .progress(let fraction, let frame): return .progress(fraction: fraction, frame: move(frame))
    }
  }
}

/// Lays widgets out, each at 0, 0 first, then moved into its box.
private struct Builder {
  typealias Style = LayerSceneLayout.TextStyle

  struct Laid {
    var width: Int
    var height: Int
    var items: [LayerSceneLayout.Item]
    /// Whether it grows along its box (a spacer), taking what is left.
    var expands = false
    /// Whether it holds text that wraps (a narrower width makes it taller).
    var wraps = false

    func moved(_ dx: Int, _ dy: Int) -> [LayerSceneLayout.Item] {
      items.map { LayerSceneLayout.moved($0, dx, dy) }
    }
  }

  let measure: LayerSceneLayout.Measure

  func lay(_ widget: Widget, available: Int, style: Style, along axis: Widget.Orientation) -> Laid {
    switch widget {
    case .label(let text, let labelStyle):
      var style = style
      if labelStyle == .title { style.bold = true }
      return self.text(text, available: available, style: style)
    case .iconLabel(_, let title):
      return self.text(title, available: available, style: style)
    case .image(_, let systemName):
      var style = style
      style.dim = true
      return self.text("[\(systemName)]", available: available, style: style)
    case .button(let id, let isEnabled, let content):
      let padding = LayerSceneLayout.buttonPadding
      var inner = style
      if !isEnabled { inner.dim = true }
      let laid = lay(content, available: max(available - 2 * padding.horizontal, 1), style: inner, along: .horizontal)
      let width = min(laid.width + 2 * padding.horizontal, max(available, laid.width))
      let height = max(laid.height + 2 * padding.vertical, LayerSceneLayout.buttonMinimumHeight)
      let frame = ScreenRect(x: 0, y: 0, width: width, height: height)
      return Laid(
        width: width, height: height,
        items: [.button(id: id, isEnabled: isEnabled, frame: frame)]
          + laid.moved((width - laid.width) / 2, (height - laid.height) / 2), wraps: laid.wraps)
    case .entry(let id, let placeholder, let text, let isEnabled):
      let width = max(available, min(LayerSceneLayout.fieldMinimumWidth, available))
      let frame = ScreenRect(x: 0, y: 0, width: width, height: LayerSceneLayout.fieldHeight)
      return Laid(
        width: width, height: frame.height,
        items: [.field(id: id, text: text, placeholder: placeholder, isEnabled: isEnabled, frame: frame)])
    case .spacer:
      return Laid(width: 0, height: 0, items: [], expands: true)
    case .separator(let orientation):
      let frame =
        orientation == .horizontal
        ? ScreenRect(x: 0, y: 4, width: available, height: 1) : ScreenRect(x: 4, y: 0, width: 1, height: 20)
      return Laid(
        width: orientation == .horizontal ? available : 9, height: orientation == .horizontal ? 9 : 20,
        items: [.separator(frame)])
    case .progress(let label, let fraction):
      var items: [LayerSceneLayout.Item] = []
      var height = 0
      var width = fraction == nil ? LayerSceneLayout.spinnerSize : available
      if let label, !label.isEmpty {
        let laid = self.text(label, available: available, style: style)
        items += laid.items
        height = laid.height + 6
        width = max(width, laid.width)
      }
      let size = fraction == nil ? LayerSceneLayout.spinnerSize : 6
      items.append(
        .progress(
          fraction: fraction,
          frame: ScreenRect(x: 0, y: height, width: fraction == nil ? size : available, height: size)))
      return Laid(width: width, height: height + size, items: items)
    case .styled(let look, let inner):
      let margins = look.margins ?? [0, 0, 0, 0]
      let (top, leading, bottom, trailing) = (margins[0], margins[1], margins[2], margins[3])
      let laid = lay(inner, available: max(available - leading - trailing, 1), style: applied(look, to: style), along: axis)
      let width = look.fillsWidth ? max(available, laid.width + leading + trailing) : laid.width + leading + trailing
      return Laid(
        width: width, height: laid.height + top + bottom, items: laid.moved(leading, top), expands: laid.expands,
        wraps: laid.wraps)
    case .box(.vertical, let spacing, let alignment, let children):
      return column(children, spacing: spacing, alignment: alignment, available: available, style: style)
    case .box(.horizontal, let spacing, let alignment, let children):
      return row(children, spacing: spacing, alignment: alignment, available: available, style: style)
    }
  }

  private func text(_ text: String, available: Int, style: Style) -> Laid {
    let size = measure(text, style, available)
    let width = min(size.width, available)
    return Laid(
      width: width, height: size.height,
      items: [.text(text, style: style, frame: ScreenRect(x: 0, y: 0, width: width, height: size.height), wrapWidth: available)],
      wraps: true)
  }

  private func column(_ children: [Widget], spacing: Int, alignment: Widget.Alignment, available: Int, style: Style) -> Laid {
    let laid = children.map { lay($0, available: available, style: style, along: .vertical) }
    let width = laid.map(\.width).max() ?? 0
    var items: [LayerSceneLayout.Item] = []
    var y = 0
    for (index, child) in laid.enumerated() {
      if index > 0 && !(child.expands && child.height == 0) { y += spacing }
      let x =
        switch alignment {
        case .start: 0
        case .center: (width - child.width) / 2
        case .end: width - child.width
        }
      items += child.moved(x, y)
      y += child.height
    }
    return Laid(width: width, height: y, items: items, wraps: laid.contains { $0.wraps })
  }

  private func row(_ children: [Widget], spacing: Int, alignment: Widget.Alignment, available: Int, style: Style) -> Laid {
    var laid = children.map { lay($0, available: available, style: style, along: .horizontal) }
    let gaps = spacing * max(children.count - 1, 0)
    var total = laid.map(\.width).reduce(0, +) + gaps
    if total > available {
      // Text that wraps shares what the rest leave, as GTK narrows wrapping labels first.
      let wrapping = laid.indices.filter { laid[$0].wraps }
      let fixed = laid.indices.filter { !laid[$0].wraps }.map { laid[$0].width }.reduce(0, +)
      if !wrapping.isEmpty {
        let share = max((available - fixed - gaps) / wrapping.count, 24)
        for index in wrapping { laid[index] = lay(children[index], available: share, style: style, along: .horizontal) }
      }
      total = laid.map(\.width).reduce(0, +) + gaps
    }
    let spacers = laid.filter(\.expands).count
    let extra = spacers > 0 ? max(available - total, 0) / spacers : 0
    let height = laid.map(\.height).max() ?? 0
    var items: [LayerSceneLayout.Item] = []
    var x = 0
    for (index, child) in laid.enumerated() {
      if index > 0 { x += spacing }
      let y =
        switch alignment {
        case .start: 0
        case .center: (height - child.height) / 2
        case .end: height - child.height
        }
      items += child.moved(x, y)
      x += child.width + (child.expands ? extra : 0)
    }
    return Laid(width: x, height: height, items: items, wraps: laid.contains { $0.wraps })
  }

  /// `style` with a widget's look applied (the classes of `WidgetStyle`).
  private func applied(_ look: WidgetStyle, to style: Style) -> Style {
    var style = style
    for name in look.classes {
      switch name {
      case "th-bold": style.bold = true
      case "th-italic": style.italic = true
      case "dim-label": style.dim = true
      case _ where name.hasPrefix("th-color-"): style.colour = String(name.dropFirst("th-color-".count))
      case _ where name.hasPrefix("th-font-"):
        let font = String(name.dropFirst("th-font-".count))
        if font == "headline" { style.bold = true }
        style.scale = Self.fontScales[font] ?? style.scale
      default: break
      }
    }
    return style
  }

  /// The sizes of `GtkSession.styleSheet`'s text styles.
  static let fontScales: [String: Double] = [
    "largeTitle": 1.7, "title": 1.5, "title2": 1.3, "title3": 1.15, "subheadline": 0.95, "callout": 0.95,
    "footnote": 0.85, "caption": 0.8, "caption2": 0.75,
  ]
}
