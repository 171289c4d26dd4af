import TranslationViewTree

/// A provider's view tree laid out as terminal lines for a given width.
///
/// Points become cells: a `VStack`'s spacing is one line per 16 points
/// (default none), an `HStack`'s one column per 8 points (default one
/// column). An `HStack` whose children do not fit side by side stacks them,
/// so nothing is ever cut off; `Spacer`s share what is left of its width.
package struct SceneLayout: Sendable {
  package private(set) var lines: [StyledLine] = []
  /// The controls in focus order (the order of the tree).
  package private(set) var controls: [ControlFrame] = []
  /// The caret of the focused text field.
  package private(set) var cursor: CellPosition?
  /// Columns the widest line needs, before alignment pads it.
  package private(set) var naturalWidth = 0

  private init() {}

  package init(_ node: ViewNode, width: Int, options: LayoutOptions) {
    self = Self.layout(node, width: max(width, 1), options)
  }

  // MARK: Nodes

  private static func layout(_ node: ViewNode, width: Int, _ options: LayoutOptions) -> SceneLayout {
    var block = SceneLayout()
    switch node {
    case .text(let text):
      block.appendWrapped(text, width: width, style: [])
    case .label(let title, let systemImage):
      block.appendWrapped(labelText(title, systemImage, options), width: width, style: [])
    case .button(let id, let isEnabled, let label):
      block.appendButton(id: id, isEnabled: isEnabled, label: buttonText(label, options), width: width, options)
    case .textField(let id, let placeholder, let text, let isEnabled):
      block.appendField(id: id, placeholder: placeholder, text: text, isEnabled: isEnabled, width: width, options)
    case .progress(let label, let fraction):
      block.appendProgress(label: label, fraction: fraction, width: width, options)
    case .divider:
      block.appendLine(StyledLine(String(repeating: options.unicode ? "─" : "-", count: width), style: .dim))
    case .spacer:
      break
    case .vstack(let alignment, let spacing, let children):
      block.stackVertically(children, HorizontalAlignment(alignment), gap: spacing.map { Int(($0 / 16).rounded()) } ?? 0, width: width, options)
    case .hstack(let alignment, let spacing, let children):
      block.stackHorizontally(children, alignment, gap: spacing.map { Int(($0 / 8).rounded()) } ?? 1, width: width, options)
    }
    return block
  }

  private static func labelText(_ title: String, _ systemImage: String?, _ options: LayoutOptions) -> String {
    guard let systemImage else { return title }
    return SymbolStandIn.text(for: systemImage, unicode: options.unicode) + " " + title
  }

  /// A button's label as one string (a label node may be any view).
  private static func buttonText(_ label: ViewNode, _ options: LayoutOptions) -> String {
    if case .label(let title, let systemImage) = label { return labelText(title, systemImage, options) }
    return label.visibleText
  }

  private mutating func appendButton(id: String, isEnabled: Bool, label: String, width: Int, _ options: LayoutOptions) {
    let style: TextStyle = !isEnabled ? .dim : options.focus == id ? [.reverse, .bold] : .bold
    let start = lines.count
    for line in TextWrapper.wrap(label, width: max(width - 4, 1)) {
      appendLine(StyledLine("[ " + line + " ]", style: style))
    }
    controls.append(ControlFrame(id: id, kind: .button, isEnabled: isEnabled, lines: start..<lines.count))
  }

  /// A one-line field that scrolls sideways to keep its caret in view.
  private mutating func appendField(
    id: String, placeholder: String, text: String, isEnabled: Bool, width: Int, _ options: LayoutOptions
  ) {
    let focused = options.focus == id && isEnabled
    var line = StyledLine()
    if text.isEmpty {
      line.append(String(TextWrapper.sanitized(placeholder).prefix(columns: width)), style: [.underline, .dim])
      if focused { cursor = CellPosition(line: lines.count, column: 0) }
    } else {
      let characters = Array(TextWrapper.sanitized(text).replacing("\n", with: " "))
      let caret = focused ? min(max(options.caret, 0), characters.count) : 0
      var start = 0
      while start < caret && String(characters[start..<caret]).displayWidth > width - 1 { start += 1 }
      let visible = String(characters[start...]).prefix(columns: width)
      line.append(String(visible), style: isEnabled ? .underline : [.underline, .dim])
      if focused { cursor = CellPosition(line: lines.count, column: String(characters[start..<caret]).displayWidth) }
    }
    line.append(String(repeating: " ", count: max(width - line.width, 0)), style: isEnabled ? .underline : [.underline, .dim])
    controls.append(ControlFrame(id: id, kind: .textField, isEnabled: isEnabled, lines: lines.count..<lines.count + 1))
    appendLine(line)
  }

  private mutating func appendProgress(label: String?, fraction: Double?, width: Int, _ options: LayoutOptions) {
    let frames = options.unicode ? ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] : ["-", "\\", "|", "/"]
    var text = frames[options.spinnerFrame % frames.count]
    if let fraction {
      let clamped = min(max(fraction, 0), 1)
      let bar = max(min(20, width - 7), 1)
      let filled = Int((clamped * Double(bar)).rounded())
      let (full, empty) = options.unicode ? ("█", "░") : ("#", ".")
      text = String(repeating: full, count: filled) + String(repeating: empty, count: bar - filled) + " \(Int(clamped * 100))%"
    }
    if let label, !label.isEmpty { text += " " + label }
    appendWrapped(text, width: width, style: [])
  }

  // MARK: Stacks

  private mutating func stackVertically(
    _ children: [ViewNode], _ alignment: HorizontalAlignment, gap: Int, width: Int, _ options: LayoutOptions
  ) {
    for (index, child) in children.enumerated() {
      let block = Self.layout(child, width: width, options)
      if index > 0 && !block.lines.isEmpty { for _ in 0..<max(gap, 0) { appendLine(StyledLine()) } }
      append(block, at: CellPosition(line: lines.count, column: 0), alignment: alignment, width: width)
    }
  }

  private mutating func stackHorizontally(
    _ children: [ViewNode], _ alignment: String, gap: Int, width: Int, _ options: LayoutOptions
  ) {
    let gap = max(gap, 0)
    let shown = children.filter { $0 != .spacer }
    let natural = shown.map { Self.layout($0, width: width, options).naturalWidth }
    let needed = natural.reduce(0, +) + gap * max(shown.count - 1, 0)
    guard needed <= width else {
      stackVertically(children, .leading, gap: 0, width: width, options)
      return
    }
    let spacers = children.count - shown.count
    var room = width - needed
    var columns: [(block: SceneLayout, column: Int)] = []
    var column = 0
    var index = 0
    for child in children {
      if child == .spacer {
        let share = room / spacers
        column += share
        room -= share
        continue
      }
      if index > 0 { column += gap }
      let block = Self.layout(child, width: natural[index], options)
      columns.append((block, column))
      column += natural[index]
      index += 1
    }
    let height = columns.map(\.block.lines.count).max() ?? 0
    let top = lines.count
    for _ in 0..<height { appendLine(StyledLine()) }
    for (block, column) in columns {
      let offset = switch alignment {
      case "center": (height - block.lines.count) / 2
      case "bottom": height - block.lines.count
      default: 0
      }
      append(block, at: CellPosition(line: top + offset, column: column), alignment: .leading, width: block.naturalWidth)
    }
  }

  /// Draws `block` with its top-left cell at `origin`, each line placed by
  /// `alignment` across `width`, over what is there.
  private mutating func append(_ block: SceneLayout, at origin: CellPosition, alignment: HorizontalAlignment, width: Int) {
    for (index, line) in block.lines.enumerated() {
      let row = origin.line + index
      while lines.count <= row { appendLine(StyledLine()) }
      var combined = lines[row].clipped(to: origin.column)
      combined.append(String(repeating: " ", count: origin.column - combined.width))
      let before = alignment.offset(room: max(width - line.width, 0))
      if block.cursor?.line == index {
        cursor = CellPosition(line: row, column: origin.column + before + block.cursor!.column)
      }
      combined.append(line.aligned(to: width, alignment))
      lines[row] = combined
      naturalWidth = max(naturalWidth, origin.column + line.width)
    }
    naturalWidth = max(naturalWidth, origin.column + block.naturalWidth)
    for control in block.controls {
      controls.append(ControlFrame(id: control.id, kind: control.kind, isEnabled: control.isEnabled, lines: control.lines.lowerBound + origin.line..<control.lines.upperBound + origin.line))
    }
  }

  private mutating func appendWrapped(_ text: String, width: Int, style: TextStyle) {
    for line in TextWrapper.wrap(text, width: width) { appendLine(StyledLine(line, style: style)) }
  }

  private mutating func appendLine(_ line: StyledLine) {
    lines.append(line)
    naturalWidth = max(naturalWidth, line.width)
  }
}
