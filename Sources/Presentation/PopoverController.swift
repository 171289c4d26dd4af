import Service
import System
import TranslationViewTree

/// What every popover does between drawing and reading input: the focus
/// order, the queue of the person's actions, the call in progress and its
/// busy state, dismissal and interruption. A state machine, fed events by a
/// front end (the terminal popover, the GTK one) and answering with effects
/// for it to carry out; it touches no content, clock or descriptor itself,
/// so its rules are tested as tables without a terminal or a display.
///
/// One call to the content runs at a time, on another thread. Actions made
/// meanwhile wait in order, and edits of one field merge, so a field being
/// typed into keeps what the person typed (`text(of:)`). When nothing is
/// queued, the controller arms the content's change watch instead of asking
/// it again and again: the front end waits on its descriptor, the call's
/// wake descriptor, its input, and `nextDeadline`, never on a timer of its own.
package struct PopoverController {
  /// A call that takes longer than this shows the popover as working.
  package static let workingDelay = Duration.milliseconds(150)

  /// What is shown.
  package private(set) var tree: ViewTree
  /// The control with the keyboard focus.
  package private(set) var focus: String?
  /// Set when focus moved since the last drawing, so that it scrolls into view.
  package private(set) var focusMoved = false
  /// Whether a call has taken longer than `workingDelay`: the front end says so.
  package private(set) var isWorking = false
  /// The spinner's frame, advanced at the frame interval while something spins.
  package private(set) var spinnerFrame = 0
  /// How the content ended; nil while it goes on.
  package private(set) var ending: PopoverEnding?
  /// The call in progress.
  package private(set) var running: PopoverCall?
  /// Actions waiting for the call in progress, in order.
  package private(set) var queue: [PopoverAction] = []
  /// Whether the change watch is armed (the front end waits on its descriptor).
  package private(set) var isWatching = false

  private let redirectsTyping: Bool
  private let watchesChanges: Bool
  private let busyLimit: Duration?
  private let frameInterval: Duration?
  private var callStarted: ContinuousClock.Instant?
  private var busySince: ContinuousClock.Instant?
  private var nextFrame: ContinuousClock.Instant?
  /// Set when the provider may have changed: a `takeChange` call is due.
  private var needsChange = true
  /// Set by `dismissAfterCall` while a call runs.
  private var dismissesAfterCall = false

  /// A controller for a content showing `first`.
  /// - Parameters:
  ///   - redirectsTyping: the content's `redirectsTyping`.
  ///   - watchesChanges: whether the content changes on its own (it has a change watch).
  ///   - busyLimit: how long the tree may show progress without a change.
  ///   - frameInterval: how often a spinner the front end draws itself moves; nil when the toolkit animates it.
  package init(
    first: ViewTree, redirectsTyping: Bool = false, watchesChanges: Bool = true, busyLimit: Duration? = nil,
    frameInterval: Duration? = nil
  ) {
    tree = first
    self.redirectsTyping = redirectsTyping
    self.watchesChanges = watchesChanges
    self.busyLimit = busyLimit
    self.frameInterval = frameInterval
    needsChange = watchesChanges
  }

  /// A controller for `content`, showing `first`.
  package init(content: any PopoverContent, first: ViewTree, frameInterval: Duration? = nil) {
    self.init(
      first: first, redirectsTyping: content.redirectsTyping, watchesChanges: content.changesOnItsOwn,
      busyLimit: content.busyLimit, frameInterval: frameInterval)
  }

  // MARK: Events

  /// The first effects: focus on the first control, a drawing, and the first look for changes.
  package mutating func begin(at now: ContinuousClock.Instant) -> [PopoverEffect] {
    keepFocus(moved: false)
    noteBusy(at: now)
    return [.redraw] + pump(at: now)
  }

  /// Takes `event` at `now` and returns what the front end does about it, in order.
  package mutating func handle(_ event: PopoverEvent, at now: ContinuousClock.Instant) -> [PopoverEffect] {
    guard ending == nil else { return [] }
    switch event {
    case .action(let action):
      enqueue(action)
      return pump(at: now)
    case .moveFocus(let offset):
      moveFocus(by: offset)
      return [.redraw]
    case .focused(let id):
      focus = id
      return []
    case .dismiss:
      return end(.dismissed)
    case .dismissAfterCall:
      guard running != nil else { return end(.dismissed) }
      dismissesAfterCall = true
      return []
    case .signal(let signal):
      return end(.interrupted(signal))
    case .callFinished(let result):
      return finish(result, at: now)
    case .changeReady:
      isWatching = false
      needsChange = true
      return pump(at: now)
    case .watchFailed(let error):
      return end(.failed(error))
    case .redrawAsked:
      return [.redraw]
    case .deadline:
      return deadlinePassed(at: now)
    }
  }

  /// When the front end must send `.deadline` even if nothing else happens: the
  /// working delay, the spinner's next frame, the busy limit. Nil: wait for events only.
  package var nextDeadline: ContinuousClock.Instant? {
    guard ending == nil else { return nil }
    var deadlines: [ContinuousClock.Instant] = []
    if let callStarted, !isWorking { deadlines.append(callStarted + Self.workingDelay) }
    if let nextFrame { deadlines.append(nextFrame) }
    if let busySince, let busyLimit, running == nil { deadlines.append(busySince + busyLimit) }
    return deadlines.min()
  }

  /// The text of field `id` as the person typed it: the newest edit still
  /// queued or in progress, else the tree's.
  package func text(of id: String) -> String {
    for case .edit(id, let text) in queue.reversed() { return text }
    if case .action(.edit(id, let text))? = running { return text }
    return tree.textFields.first { $0.id == id }?.text ?? ""
  }

  /// The tree to draw: `tree`, with fields that have edits queued or in
  /// progress showing what the person typed.
  package var shownTree: ViewTree {
    var typed: [String: String] = [:]
    if case .action(.edit(let id, let text))? = running { typed[id] = text }
    for case .edit(let id, let text) in queue { typed[id] = text }
    guard !typed.isEmpty else { return tree }
    var shown = tree
    shown.root = tree.root.showing(typed: typed)
    return shown
  }

  /// The enabled controls in focus order (the tree's reading order).
  package var focusOrder: [String] {
    var ids: [String] = []
    tree.root.forEach { node in
      if case .button(let id, true, _) = node { ids.append(id) }
      if case .textField(let id, _, _, true) = node { ids.append(id) }
    }
    return ids
  }

  /// Whether control `id` is an enabled text field.
  package func isField(_ id: String?) -> Bool {
    tree.textFields.contains { $0.id == id && $0.isEnabled }
  }

  /// The first enabled text field, which typing goes to when the content
  /// redirects typing and a button has the focus; nil otherwise.
  package var typingTarget: String? {
    guard redirectsTyping, !isField(focus) else { return nil }
    return tree.textFields.first { $0.isEnabled }?.id
  }

  /// Moves the focus to `id` (typing redirected to a field), as a drawing will show.
  package mutating func focus(on id: String) {
    focus = id
    focusMoved = true
  }

  /// Clears `focusMoved` once a drawing scrolled the focus into view.
  package mutating func focusShown() { focusMoved = false }

  // MARK: Rules

  private mutating func enqueue(_ action: PopoverAction) {
    if case .edit(let id, _) = action, case .edit(id, _)? = queue.last {
      queue[queue.count - 1] = action
    } else {
      queue.append(action)
    }
  }

  /// Starts the next call when none runs: a queued action first, then a
  /// look for changes when one is due; with nothing to do, arms the watch.
  private mutating func pump(at now: ContinuousClock.Instant) -> [PopoverEffect] {
    guard ending == nil, running == nil else { return [] }
    let call: PopoverCall
    if !queue.isEmpty {
      call = .action(queue.removeFirst())
    } else if needsChange {
      needsChange = false
      call = .takeChange
    } else {
      guard watchesChanges, !isWatching else { return [] }
      isWatching = true
      return [.watchChanges]
    }
    running = call
    callStarted = now
    isWatching = false  // a request to the content answers the watch too
    return [.start(call)]
  }

  private mutating func finish(_ result: Result<SceneUpdate?, any Error>, at now: ContinuousClock.Instant) -> [PopoverEffect] {
    guard let call = running else { return [] }
    running = nil
    callStarted = nil
    var effects: [PopoverEffect] = []
    if isWorking {
      isWorking = false
      effects.append(.redraw)
    }
    switch result {
    case .failure(let error):
      return effects + end(.failed(error))
    case .success(.finished(let translation)?):
      return effects + end(.finished(translation))
    case .success(.view(let next)?):
      if next != tree || focusOrder.isEmpty {
        tree = next
        keepFocus(moved: true)
        if !effects.contains(.redraw) { effects.append(.redraw) }
      }
      busySince = nil
      // What the provider said while the call ran may wait, read, in the session: look once more.
      needsChange = watchesChanges
    case .success(nil):
      if case .action(.submit) = call {
        moveFocus(by: 1)
        if !effects.contains(.redraw) { effects.append(.redraw) }
      }
    }
    noteBusy(at: now)
    if dismissesAfterCall { return effects + end(.dismissed) }
    return effects + pump(at: now)
  }

  private mutating func deadlinePassed(at now: ContinuousClock.Instant) -> [PopoverEffect] {
    var effects: [PopoverEffect] = []
    if let callStarted, !isWorking, callStarted + Self.workingDelay <= now {
      isWorking = true
      effects.append(.redraw)
    }
    if let frame = nextFrame, frame <= now {
      spinnerFrame += 1
      if !effects.contains(.redraw) { effects.append(.redraw) }
    }
    scheduleFrame(at: now)
    if let busySince, let busyLimit, running == nil, busySince + busyLimit <= now {
      return effects + end(.stillBusy(tree))
    }
    return effects + pump(at: now)
  }

  /// Notes when the tree began to show progress, and keeps the spinner moving.
  private mutating func noteBusy(at now: ContinuousClock.Instant) {
    if tree.isBusy {
      busySince = busySince ?? now
    } else {
      busySince = nil
    }
    scheduleFrame(at: now)
  }

  private mutating func scheduleFrame(at now: ContinuousClock.Instant) {
    guard let frameInterval, tree.isBusy || isWorking else {
      nextFrame = nil
      return
    }
    if nextFrame.map({ $0 <= now }) ?? true { nextFrame = now + frameInterval }
  }

  private mutating func end(_ ending: PopoverEnding) -> [PopoverEffect] {
    let wasRunning = running != nil
    self.ending = ending
    running = nil
    callStarted = nil
    queue = []
    isWatching = false
    nextFrame = nil
    return (wasRunning ? [.interrupt] : []) + [.end]
  }

  // MARK: Focus

  private mutating func moveFocus(by offset: Int) {
    let order = focusOrder
    guard !order.isEmpty else { return }
    let index = order.firstIndex { $0 == focus }.map { ($0 + offset % order.count + order.count) % order.count } ?? 0
    focus = order[index]
    focusMoved = true
  }

  /// Keeps focus on a control that is still there and enabled, else the
  /// first enabled one. Focus that starts on the first control does not
  /// scroll: the text is read from its start.
  private mutating func keepFocus(moved: Bool) {
    let order = focusOrder
    guard !order.contains(where: { $0 == focus }) else { return }
    let hadFocus = focus != nil
    focus = order.first
    focusMoved = moved && hadFocus && focus != nil
  }
}
