import Presentation
import Service
import System
import TranslationViewTree

/// Shows one content on the terminal and answers keys until it finishes
/// or the person dismisses it.
///
/// Keys: Tab / Shift-Tab and the arrow keys move focus among enabled
/// controls (Left and Right move the caret inside a field), Enter or Space
/// presses a button, typing edits the focused field, Page Up / Page Down
/// scroll, Esc (anywhere) or `q` (outside a field) dismisses.
final class PopoverLoop {
  /// The widest popover content, in columns, when the screen allows it.
  static let preferredContentWidth = 60

  private let screen: TerminalScreen
  private let content: any PopoverContent
  private let title: String
  private let placement: PopoverPlacement
  private var tree: ViewTree
  private var layout: SceneLayout
  private var focus: String?
  private var carets: [String: Int] = [:]
  private var scroll = 0
  private var spinnerFrame = 0
  private var visibleRows = 1
  /// Set when focus moved, so the next drawing scrolls it into view.
  private var focusMoved = false
  /// Set by Esc or `q`.
  private var dismissed = false
  /// Keys that came while the content was working, in order.
  private var pendingKeys: [Key] = []
  /// Set while a call to the content takes long: the border says so.
  private var working = false
  /// The tree shown, laid out, by width and options.
  private var layouts: [LayoutKey: SceneLayout] = [:]

  init(screen: TerminalScreen, content: any PopoverContent, first: ViewTree, title: String, placement: PopoverPlacement) {
    self.screen = screen
    self.content = content
    self.title = title
    self.placement = placement
    self.tree = first
    self.layout = SceneLayout(first.root, width: Self.preferredContentWidth, options: LayoutOptions())
  }

  /// Runs until the content finishes (its replacement, if any) or is dismissed (nil).
  /// - Throws: the content's errors, and `PopoverError.interrupted` on
  ///   Ctrl-C, SIGINT, SIGTERM or SIGHUP.
  func run() throws -> String?? {
    focusFirstIfNeeded()
    while true {
      if let signal = TerminalSignals.pending { throw PopoverError.interrupted(signal: signal) }
      draw()
      if let key = pendingKeys.isEmpty ? screen.readKey() : pendingKeys.removeFirst() {
        switch try handle(key) {
        case .some(.finished(let translation)): return .some(translation)
        case .some(.view(let next)): show(next)
        case nil: break
        }
        if dismissed { return nil }
      }
      let shown = tree
      switch try perform({ [content] in try content.tick(showing: shown) }) {
      case .some(.finished(let translation)): return .some(translation)
      case .some(.view(let next)): show(next)
      case nil: break
      }
      if dismissed { return nil }
      if tree.isBusy { spinnerFrame += 1 }
    }
  }

  /// Calls the content on another thread and keeps the screen alive
  /// meanwhile: Esc and Ctrl-C, SIGINT, SIGTERM and SIGHUP interrupt the
  /// call; other keys wait for it to return.
  private func perform(_ work: @escaping () throws -> SceneUpdate?) throws -> SceneUpdate? {
    let call = BackgroundCall(work)
    defer { working = false }
    var waited = 0
    while true {
      if let result = call.result { return try result.get() }
      if let signal = TerminalSignals.pending {
        stop(call)
        throw PopoverError.interrupted(signal: signal)
      }
      // A call that takes a moment gets the spinner; a quick one is not drawn for.
      waited += 1
      if waited > 5 {
        working = true
        spinnerFrame += 1
        draw()
      }
      switch screen.readKey(waiting: .milliseconds(waited > 5 ? 100 : 2)) {
      case .escape?:
        stop(call)
        dismissed = true
        return nil
      case .interrupt?:
        stop(call)
        throw PopoverError.interrupted(signal: .interrupt)
      case let key?:
        pendingKeys.append(key)
      case nil:
        break
      }
    }
  }

  /// Interrupts a call and waits for it to return (its runner is gone, so it does at once).
  private func stop(_ call: BackgroundCall<SceneUpdate?>) {
    content.interrupt()
    call.wait()
  }

  // MARK: Keys

  private func handle(_ key: Key) throws -> SceneUpdate? {
    let focused = layout.controls.first { $0.id == focus && $0.isEnabled }
    let field = focused?.kind == .textField ? focused : nil
    switch key {
    case .interrupt: throw PopoverError.interrupted(signal: .interrupt)
    case .escape: dismissed = true
    case .resize: break
    case .tab, .down: moveFocus(by: 1)
    case .backTab, .up: moveFocus(by: -1)
    case .left, .right:
      if let field { moveCaret(field.id, by: key == .left ? -1 : 1) } else { moveFocus(by: key == .left ? -1 : 1) }
    case .home, .end:
      if let field { carets[field.id] = key == .home ? 0 : text(of: field.id).count } else { scroll = key == .home ? 0 : Int.max }
    case .pageUp: scroll = max(scroll - max(visibleRows - 1, 1), 0)
    case .pageDown: scroll += max(visibleRows - 1, 1)
    case .enter:
      if let field {
        return try perform { [content] in try content.submit(field.id) }
          ?? {
            moveFocus(by: 1)
            return nil
          }()
      }
      if let focused { return try perform { [content] in try content.press(focused.id) } }
    case .character(" ") where field == nil:
      if let focused { return try perform { [content] in try content.press(focused.id) } }
    case .character("q") where field == nil:
      dismissed = true
    case .character(let character):
      if let field { return try insert(character, into: field.id) }
      if content.redirectsTyping, let first = layout.controls.first(where: { $0.kind == .textField && $0.isEnabled }) {
        focus = first.id
        focusMoved = true
        carets[first.id] = text(of: first.id).count
        return try insert(character, into: first.id)
      }
    case .backspace, .delete:
      if let field { return try delete(in: field.id, before: key == .backspace) }
    }
    return nil
  }

  private func insert(_ character: Character, into id: String) throws -> SceneUpdate? {
    var characters = Array(text(of: id))
    let caret = min(carets[id] ?? characters.count, characters.count)
    characters.insert(character, at: caret)
    carets[id] = caret + 1
    return try edit(id, text: String(characters))
  }

  private func edit(_ id: String, text: String) throws -> SceneUpdate? {
    try perform { [content] in try content.edit(id, text: text) }
  }

  private func delete(in id: String, before: Bool) throws -> SceneUpdate? {
    var characters = Array(text(of: id))
    let caret = min(carets[id] ?? characters.count, characters.count)
    let index = before ? caret - 1 : caret
    guard characters.indices.contains(index) else { return nil }
    characters.remove(at: index)
    carets[id] = index
    return try edit(id, text: String(characters))
  }

  private func moveCaret(_ id: String, by offset: Int) {
    let count = text(of: id).count
    carets[id] = min(max((carets[id] ?? count) + offset, 0), count)
  }

  /// The text of field `id` in the tree shown.
  private func text(of id: String) -> String {
    var result = ""
    tree.root.forEach { node in
      if case .textField(id, _, let text, _) = node { result = text }
    }
    return result
  }

  // MARK: Focus

  private var focusable: [ControlFrame] { layout.controls.filter(\.isEnabled) }

  private func moveFocus(by offset: Int) {
    let controls = focusable
    guard !controls.isEmpty else { return }
    let index = controls.firstIndex { $0.id == focus }.map { ($0 + offset + controls.count) % controls.count } ?? 0
    focus = controls[index].id
    focusMoved = true
    if controls[index].kind == .textField && carets[focus!] == nil { carets[focus!] = text(of: focus!).count }
  }

  /// Keeps focus on a control that is still there and enabled, else the first enabled one.
  /// Focus starting on a first control does not scroll: the text is read from its start.
  private func focusFirstIfNeeded() {
    relayout(width: layoutWidth)
    guard !focusable.contains(where: { $0.id == focus }) else { return }
    let hadFocus = focus != nil
    focus = nil
    moveFocus(by: 0)
    focusMoved = hadFocus
  }

  private func show(_ next: ViewTree) {
    tree = next
    layouts = [:]
    focusFirstIfNeeded()
  }

  // MARK: Drawing

  private var layoutWidth: Int {
    let size = screen.size
    if content.wantsFullScreen { return max(size.columns - 4, 1) }
    return max(min(Self.preferredContentWidth, placement.maximumWidth(screen: size) - 4), 1)
  }

  /// Lays the tree out again, unless it was laid out with these options
  /// since it last changed: the loop draws ten times a second, and a long
  /// text takes long to lay out.
  private func relayout(width: Int) {
    let options = LayoutOptions(
      focus: focus, caret: focus.flatMap { carets[$0] } ?? 0, spinnerFrame: spinnerFrame, unicode: screen.unicode)
    let key = LayoutKey(width: width, options: options)
    if let known = layouts[key] {
      layout = known
      return
    }
    if layouts.count > 8 { layouts = [:] }
    layout = SceneLayout(tree.root, width: width, options: options)
    layouts[key] = layout
  }

  private struct LayoutKey: Hashable {
    var width: Int
    var options: LayoutOptions
  }

  private func draw() {
    let size = screen.size
    var width = layoutWidth
    relayout(width: width)
    let natural = max(layout.naturalWidth, title.displayWidth + 2, 16)
    if natural < width && !content.wantsFullScreen {
      width = natural
      relayout(width: width)
    }
    let frame: PopoverFrame? =
      content.wantsFullScreen && size.rows >= PopoverPlacement.minimumSize.height
        && size.columns >= PopoverPlacement.minimumSize.width
      ? PopoverFrame(origin: CellPosition(line: 0, column: 0), width: size.columns, height: size.rows, arrow: nil)
      : placement.frame(width: width + 4, height: layout.lines.count + 2, screen: size)
    guard let frame else {
      drawTooSmall(size)
      return
    }
    let chrome = PopoverChrome(
      frame: frame, title: title, unicode: screen.unicode,
      status: working ? SceneLayout.spinner(frame: spinnerFrame, unicode: screen.unicode) + " working" : nil)
    if chrome.contentWidth < width { relayout(width: chrome.contentWidth) }
    visibleRows = chrome.contentHeight
    scrollToFocus()
    let visible = Array(layout.lines[min(scroll, layout.lines.count)..<min(scroll + visibleRows, layout.lines.count)])
    let cursor = layout.cursor.flatMap { cursor -> CellPosition? in
      guard (scroll..<scroll + visibleRows).contains(cursor.line) else { return nil }
      return CellPosition(
        line: frame.origin.line + 1 + cursor.line - scroll,
        column: frame.origin.column + 2 + min(cursor.column, chrome.contentWidth - 1))
    }
    screen.draw(chrome.lines(visible, scroll: scroll, total: layout.lines.count), cursor: cursor)
  }

  /// Scrolls so the focused control shows, within the content's bounds.
  private func scrollToFocus() {
    if focusMoved, let control = layout.controls.first(where: { $0.id == focus }) {
      focusMoved = false
      if control.lines.lowerBound < scroll { scroll = control.lines.lowerBound }
      if control.lines.upperBound > scroll + visibleRows { scroll = control.lines.upperBound - visibleRows }
    }
    scroll = min(max(scroll, 0), max(layout.lines.count - visibleRows, 0))
  }

  private func drawTooSmall(_ size: (rows: Int, columns: Int)) {
    let minimum = PopoverPlacement.minimumSize
    let message =
      "The terminal is too small for the popover: it needs \(minimum.width)×\(minimum.height), this one is \(size.columns)×\(size.rows). Enlarge it, or press Esc to dismiss."
    let lines = TextWrapper.wrap(screen.unicode ? message : message.replacing("×", with: "x"), width: max(size.columns, 1))
    screen.draw(
      lines.prefix(size.rows).enumerated().map { (CellPosition(line: $0.offset, column: 0), StyledLine($0.element)) },
      cursor: nil)
  }
}
