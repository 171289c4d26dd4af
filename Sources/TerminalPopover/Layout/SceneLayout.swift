import TranslationViewTree

/// A provider's view tree laid out as terminal lines for a given width.
///
/// Points become cells: a `VStack`'s spacing is one line per 16 points
/// (default none), an `HStack`'s one column per 8 points (default one
/// column). An `HStack` whose children do not fit side by side stacks them,
/// so nothing is ever cut off; `Spacer`s share what is left of its width.
struct SceneLayout: Sendable {
  private(set) var lines: [StyledLine] = []
  /// The controls in focus order (the order of the tree).
  private(set) var controls: [ControlFrame] = []
  /// The caret of the focused text field.
  private(set) var cursor: CellPosition?
  /// Columns the widest line needs, before alignment pads it.
  private(set) var naturalWidth = 0

  private init() {}

  init(_ node: ViewNode, width: Int, options: LayoutOptions) {
    self = Layouter(options).layout(node, path: [], width: max(width, 1))
  }

  /// Lays out nodes, each node at each width once: an `HStack` measures its
  /// children before placing them, and without the memo nested stacks from
  /// a provider would cost time exponential in their depth.
  private final class Layouter {
    private struct Key: Hashable {
      var path: [Int]
      var width: Int
    }

    let options: LayoutOptions
    private var laidOut: [Key: SceneLayout] = [:]

    init(_ options: LayoutOptions) { self.options = options }

    /// `node` (at `path` in the tree) laid out for `width`.
    func layout(_ node: ViewNode, path: [Int], width: Int) -> SceneLayout {
      let key = Key(path: path, width: width)
      if let block = laidOut[key] { return block }
      let block = SceneLayout.layout(node, path: path, width: width, self)
      laidOut[key] = block
      return block
    }
  }

  // MARK: Nodes

  private static func layout(_ node: ViewNode, path: [Int], width: Int, _ layouter: Layouter) -> SceneLayout {
    let options = layouter.options
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
      block.stackVertically(
        children, at: path, HorizontalAlignment(alignment), gap: spacing.map { Int(($0 / 16).rounded()) } ?? 0, width: width,
        layouter)
    case .hstack(let alignment, let spacing, let children):
      block.stackHorizontally(
        children, at: path, VerticalAlignment(alignment), gap: spacing.map { Int(($0 / 8).rounded()) } ?? 1, width: width,
        layouter)
    case .scroll(let children), .unknown(_, let children):
      // The popover scrolls the whole scene (Page Up, Page Down); an unknown node shows its children.
      block.stackVertically(children, at: path, .leading, gap: 0, width: width, layouter)
    case .image(let systemName):
      block.appendWrapped(SymbolStandIn.text(for: systemName, unicode: options.unicode), width: width, style: [])
    case .styled(let style, let inner):
      block.appendStyled(inner, style, at: path, width: width, layouter)
    }
    return block
  }

  /// A node with a look: padding in cells (16 points a line, 8 a column, as
  /// spacing), bold for `.bold()` and the title styles, dim for the
  /// secondary styles. Colours, italics and frames are left to hosts that
  /// can draw them.
  private mutating func appendStyled(
    _ node: ViewNode, _ style: ViewStyle, at path: [Int], width: Int, _ layouter: Layouter
  ) {
    let padding = style.padding ?? ViewStyle.Insets(top: 0, leading: 0, bottom: 0, trailing: 0)
    let (top, bottom) = (Int((padding.top / 16).rounded()), Int((padding.bottom / 16).rounded()))
    let leading = min(Int((padding.leading / 8).rounded()), max(width - 1, 0))
    let trailing = min(Int((padding.trailing / 8).rounded()), max(width - leading - 1, 0))
    var inner = layouter.layout(node, path: path + [0], width: max(width - leading - trailing, 1))
    var textStyle: TextStyle = []
    let titles: Set = ["largeTitle", "title", "title2", "title3", "headline"]
    if style.bold == true || style.font.map(titles.contains) == true { textStyle.insert(.bold) }
    if ["secondary", "tertiary"].contains(style.foregroundStyle) { textStyle.insert(.dim) }
    if !textStyle.isEmpty { inner.lines = inner.lines.map { $0.adding(textStyle) } }
    for _ in 0..<top { appendLine(StyledLine()) }
    append(inner, at: CellPosition(line: lines.count, column: leading), alignment: .leading, width: inner.naturalWidth)
    for _ in 0..<bottom { appendLine(StyledLine()) }
    naturalWidth = max(naturalWidth, leading + inner.naturalWidth + trailing)
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
    var text = Self.spinner(frame: options.spinnerFrame, unicode: options.unicode)
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

  /// One frame of the spinner that shows work in progress.
  static func spinner(frame: Int, unicode: Bool) -> String {
    let frames = unicode ? ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] : ["-", "\\", "|", "/"]
    return frames[frame % frames.count]
  }

  // MARK: Stacks

  private mutating func stackVertically(
    _ children: [ViewNode], at path: [Int], _ alignment: HorizontalAlignment, gap: Int, width: Int, _ layouter: Layouter
  ) {
    for (index, child) in children.enumerated() {
      let block = layouter.layout(child, path: path + [index], width: width)
      if index > 0 && !block.lines.isEmpty { for _ in 0..<max(gap, 0) { appendLine(StyledLine()) } }
      append(block, at: CellPosition(line: lines.count, column: 0), alignment: alignment, width: width)
    }
  }

  private mutating func stackHorizontally(
    _ children: [ViewNode], at path: [Int], _ alignment: VerticalAlignment, gap: Int, width: Int, _ layouter: Layouter
  ) {
    let gap = max(gap, 0)
    let shown = children.indices.filter { children[$0] != .spacer }
    let natural = shown.map { layouter.layout(children[$0], path: path + [$0], width: width).naturalWidth }
    let needed = natural.reduce(0, +) + gap * max(shown.count - 1, 0)
    guard needed <= width else {
      stackVertically(children, at: path, .leading, gap: 0, width: width, layouter)
      return
    }
    let spacers = children.count - shown.count
    var room = width - needed
    var columns: [(block: SceneLayout, column: Int)] = []
    var column = 0
    var placed = 0
    for (index, child) in children.enumerated() {
      if child == .spacer {
        let share = room / spacers
        column += share
        room -= share
        continue
      }
      if placed > 0 { column += gap }
      let block = layouter.layout(child, path: path + [index], width: natural[placed])
      columns.append((block, column))
      column += natural[placed]
      placed += 1
    }
    let height = columns.map(\.block.lines.count).max() ?? 0
    let top = lines.count
    for _ in 0..<height { appendLine(StyledLine()) }
    for (block, column) in columns {
      let offset = alignment.offset(room: height - block.lines.count)
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
      controls.append(
        ControlFrame(
          id: control.id, kind: control.kind, isEnabled: control.isEnabled,
          lines: control.lines.lowerBound + origin.line..<control.lines.upperBound + origin.line))
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
