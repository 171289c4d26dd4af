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
  /// How often a spinner moves.
  static let frameInterval = Duration.milliseconds(100)

  private let screen: TerminalScreen
  private let content: any PopoverContent
  private let title: String
  private let placement: PopoverPlacement
  /// Focus, the action queue, the call in progress, dismissal: everything but drawing and keys.
  private var controller: PopoverController
  private var layout: SceneLayout
  private var carets: [String: Int] = [:]
  private var scroll = 0
  private var visibleRows = 1
  /// The tree shown, laid out, by width and options.
  private var layouts: [LayoutKey: SceneLayout] = [:]
  private var laidOut: ViewTree
  /// Readable when the call in progress returned, or a signal arrived.
  private let wake: WakeDescriptor
  private var call: BackgroundCall<SceneUpdate?>?
  /// The content's change watch, while armed.
  private var changes: FileDescriptor?
  /// Whether the last drawing took the whole screen.
  private var drawnFullScreen = false

  init(
    screen: TerminalScreen, content: any PopoverContent, first: ViewTree, title: String, placement: PopoverPlacement
  ) throws {
    self.screen = screen
    self.content = content
    self.title = title
    self.placement = placement
    controller = PopoverController(content: content, first: first, frameInterval: Self.frameInterval)
    laidOut = first
    layout = SceneLayout(first.root, width: Self.preferredContentWidth, options: LayoutOptions())
    wake = try WakeDescriptor()
  }

  /// Runs until the content finishes (its replacement, if any) or is dismissed (nil).
  /// - Throws: the content's errors, and `PopoverError.interrupted` on
  ///   Ctrl-C, SIGINT, SIGTERM or SIGHUP.
  func run() throws -> String?? {
    TerminalSignals.wakes(wake.wakingDescriptor)
    defer {
      TerminalSignals.wakes(nil)
      if let call {
        content.interrupt()
        call.wait()
      }
    }
    var effects = controller.begin(at: .now)
    while true {
      if let ending = try carryOut(effects) { return try outcome(ending) }
      effects = try awaitEvents()
    }
  }

  /// Does what the controller asked; its ending once it asks to end.
  private func carryOut(_ effects: [PopoverEffect]) throws -> PopoverEnding? {
    for effect in effects {
      switch effect {
      case .start(let work):
        call = BackgroundCall({ [content] in try work.perform(on: content) }, whenDone: { [wake] in wake.wake() })
      case .interrupt:
        // The runner is gone then, so the call returns at once.
        content.interrupt()
        call?.wait()
        call = nil
      case .redraw:
        draw()
      case .watchChanges:
        do {
          changes = try content.watchChanges()
        } catch {
          _ = controller.handle(.watchFailed(error), at: .now)
          return controller.ending
        }
      case .end:
        return controller.ending
      }
    }
    return nil
  }

  private func outcome(_ ending: PopoverEnding) throws -> String?? {
    switch ending {
    case .finished(let translation): return .some(translation)
    case .dismissed: return nil
    case .failed(let error): throw error
    case .interrupted(let signal): throw PopoverError.interrupted(signal: signal)
    case .stillBusy(let tree): throw content.stillBusy(showing: tree)
    }
  }

  /// Waits for keys, the call's return, a signal, the change watch or the
  /// controller's next deadline, without a timer of its own.
  private func awaitEvents() throws -> [PopoverEffect] {
    if let signal = TerminalSignals.pending { return controller.handle(.signal(signal), at: .now) }
    var waited: [(FileDescriptor, PollEvents)] = [(screen.descriptor, .readable), (wake.descriptor, .readable)]
    if controller.isWatching, let changes { waited.append((changes, .readable)) }
    let timeout = controller.nextDeadline.map { max($0 - .now, .zero) }
    let ready: [PollEvents]
    do { ready = try Syscalls.poll(waited, timeout: timeout) } catch { throw PopoverError.noTerminal(error) }
    var effects: [PopoverEffect] = []
    if !ready[1].isEmpty {
      wake.drain()
      if let signal = TerminalSignals.pending { return controller.handle(.signal(signal), at: .now) }
      if let result = call?.result {
        call = nil
        effects += controller.handle(.callFinished(result), at: .now)
        // The provider may have asked for the whole screen (`expandSheet`) without a new tree.
        if content.wantsFullScreen != drawnFullScreen { effects.append(.redraw) }
      }
    }
    // A resize wakes the loop through the signal handler; ncurses reports it as a key.
    if !ready[0].isEmpty || !ready[1].isEmpty {
      while let key = screen.readKey(waiting: .zero) { effects += handle(key) }
    }
    if ready.count > 2, !ready[2].isEmpty, controller.isWatching {
      changes = nil
      effects += controller.handle(.changeReady, at: .now)
    }
    if let deadline = controller.nextDeadline, deadline <= .now {
      effects += controller.handle(.deadline(.now), at: .now)
    }
    return effects
  }

  // MARK: Keys

  private func handle(_ key: Key) -> [PopoverEffect] {
    let focus = controller.focus
    let field = controller.isField(focus) ? focus : nil
    switch key {
    case .interrupt: return send(.signal(.interrupt))
    case .escape: return send(.dismiss)
    case .resize: return send(.redrawAsked)
    case .tab, .down: return send(.moveFocus(by: 1))
    case .backTab, .up: return send(.moveFocus(by: -1))
    case .left, .right:
      guard let field else { return send(.moveFocus(by: key == .left ? -1 : 1)) }
      moveCaret(field, by: key == .left ? -1 : 1)
      return [.redraw]
    case .home, .end:
      if let field {
        carets[field] = key == .home ? 0 : controller.text(of: field).count
      } else {
        scroll = key == .home ? 0 : Int.max
      }
      return [.redraw]
    case .pageUp:
      scroll = max(scroll - max(visibleRows - 1, 1), 0)
      return [.redraw]
    case .pageDown:
      scroll += max(visibleRows - 1, 1)
      return [.redraw]
    case .enter:
      if let field { return send(.action(.submit(field))) }
      if let focus { return send(.action(.press(focus))) }
    case .character(" ") where field == nil:
      if let focus { return send(.action(.press(focus))) }
    case .character("q") where field == nil:
      return send(.dismiss)
    case .character(let character):
      if let field { return insert(character, into: field) }
      if let target = controller.typingTarget {
        controller.focus(on: target)
        carets[target] = controller.text(of: target).count
        return insert(character, into: target)
      }
    case .backspace, .delete:
      if let field { return delete(in: field, before: key == .backspace) }
    }
    return []
  }

  private func send(_ event: PopoverEvent) -> [PopoverEffect] { controller.handle(event, at: .now) }

  private func insert(_ character: Character, into id: String) -> [PopoverEffect] {
    var characters = Array(controller.text(of: id))
    let caret = min(carets[id] ?? characters.count, characters.count)
    characters.insert(character, at: caret)
    carets[id] = caret + 1
    return edit(id, text: String(characters))
  }

  /// An edit is drawn at once (the field shows what was typed) and sent in turn.
  private func edit(_ id: String, text: String) -> [PopoverEffect] {
    [.redraw] + send(.action(.edit(id, text: text)))
  }

  private func delete(in id: String, before: Bool) -> [PopoverEffect] {
    var characters = Array(controller.text(of: id))
    let caret = min(carets[id] ?? characters.count, characters.count)
    let index = before ? caret - 1 : caret
    guard characters.indices.contains(index) else { return [] }
    characters.remove(at: index)
    carets[id] = index
    return edit(id, text: String(characters))
  }

  private func moveCaret(_ id: String, by offset: Int) {
    let count = controller.text(of: id).count
    carets[id] = min(max((carets[id] ?? count) + offset, 0), count)
  }

  // MARK: Drawing

  private var layoutWidth: Int {
    let size = screen.size
    if content.wantsFullScreen { return max(size.columns - 4, 1) }
    return max(min(Self.preferredContentWidth, placement.maximumWidth(screen: size) - 4), 1)
  }

  /// Lays the tree out again, unless it was laid out with these options
  /// since it last changed: a spinner draws ten times a second, and a long
  /// text takes long to lay out.
  private func relayout(width: Int) {
    let tree = controller.shownTree
    if tree != laidOut {
      laidOut = tree
      layouts = [:]
    }
    let focus = controller.focus
    let options = LayoutOptions(
      focus: focus, caret: focus.flatMap { carets[$0] } ?? 0, spinnerFrame: controller.spinnerFrame,
      unicode: screen.unicode)
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
    drawnFullScreen = content.wantsFullScreen
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
      status: controller.isWorking
        ? SceneLayout.spinner(frame: controller.spinnerFrame, unicode: screen.unicode) + " working" : nil)
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
    if controller.focusMoved, let control = layout.controls.first(where: { $0.id == controller.focus }) {
      controller.focusShown()
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
