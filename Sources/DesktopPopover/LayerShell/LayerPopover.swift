import CGtk
import Presentation
import Service
import System
import TranslationViewTree

/// The popover as a surface of the compositor's overlay layer (wlroots'
/// layer shell: sway, KWin), where a GTK window would be a toplevel the
/// compositor places, titles and tiles: here the popover is exactly where
/// `DesktopPlacement` puts it (the arrow's tip at the anchor), exactly its
/// size, with no title bar, above every window.
///
/// It drives `PopoverController` as `PopoverWindow` does, on GLib's main
/// loop (the compositor's descriptor, the call's wake descriptor, the
/// content's change watch, the deadline, the signals are its sources), and
/// draws the controller's state itself (`LayerSceneLayout`,
/// `LayerScenePainter`), at the output's scale. Keys: Tab and the arrows
/// move the focus, Return and Space press, typing goes into a focused
/// field, Esc dismisses, Alt+C copies where Copy Translation is offered; a
/// held key repeats at the compositor's rate (`KeyRepeat`); a click or a tap
/// presses a button or focuses a field (`LayerTouchTracker`); a click or a
/// touch elsewhere on the output (the catcher of `CWaylandLayerShell`)
/// dismisses it, and so does the keyboard focus leaving it, as on X11.
final class LayerPopover: PopoverSurface {
  /// The layer's namespace: compositors' rules (sway's `layer_effects`) match it.
  static let namespace = "translation-host-popover"

  private let shell: LayerShellDisplay
  private let title: String
  private let placement: DesktopPlacement
  /// The output, in the coordinates of the anchor.
  private let screen: ScreenRect
  /// Where to centre the popover without an anchor (the focused window), else the output.
  private let area: ScreenRect?
  private let outputIndex: Int?
  private let painter: LayerScenePainter

  private(set) var copyPressed = false
  private var offersCopy = false
  /// The controller, its call, watch and deadline.
  private let driver: PopoverDriver
  private var content: (any PopoverContent)? { driver.content }
  private var controller: PopoverController? {
    get { driver.controller }
    set { driver.controller = newValue }
  }
  /// What shows while no content runs (the spinner of `presentWaiting`).
  private var waiting = false
  private var sources: [UInt32] = []
  private var dismissed = false
  private var signal: Signal?
  /// Why the compositor's connection failed, if it did: the popover ends with it.
  private var failure: DesktopPopoverError?
  private var isMapped = false
  private var hasFocus = false
  /// Where it shows: it stays there while new content fits (`DesktopPlacement.frame(…keeping:)`).
  private var shownFrame: DesktopPlacement.Frame?
  /// The content as last painted, in surface pixels, for clicks.
  private var painted: LayerSceneLayout?
  /// The waiting spinner's frame, turned by its own timer.
  private var spinnerFrame = 0
  private var spinnerSource: UInt32?
  /// Set by `hide`, which destroys the surface: showing again makes another.
  private var isHidden = false
  /// The key held, repeating, and its timer; the key's event, pressed again at each repeat.
  private var keyRepeat: KeyRepeat
  private var repeatSource: UInt32?
  private var repeatedKey: (keysym: UInt32, text: String, modifiers: LayerShellDisplay.Modifiers)?
  private var touches = LayerTouchTracker()
  /// A frame asked for while the compositor read every buffer: drawn when one is free.
  private var redrawWhenFree = false

  /// A popover titled `title`, not shown yet, on `shell`'s compositor.
  init(
    shell: LayerShellDisplay, title: String, placement: DesktopPlacement, screen: ScreenRect, outputIndex: Int?,
    area: ScreenRect?, dark: Bool
  ) throws {
    driver = try PopoverDriver()
    self.shell = shell
    self.title = title
    self.placement = placement
    self.screen = screen
    self.area = area
    self.outputIndex = outputIndex
    painter = LayerScenePainter(dark: dark)
    keyRepeat = shell.keyRepeat
    try shell.createSurface(outputIndex: outputIndex, namespace: Self.namespace)
    sources.append(
      GObjectBridge.onReadable(shell.descriptor) { [unowned self] in
        do {
          handle(try shell.dispatch())
        } catch {
          fail(error)
        }
        return failure == nil
      })
    for signal in [Signal.interrupt, .terminate, .hangUp] {
      sources.append(
        GObjectBridge.onUnixSignal(signal.rawValue) { [unowned self] in
          self.signal = signal
          if controller != nil { dispatch(.signal(signal)) }
        })
    }
    driver.redraw = { [unowned self] in redraw() }
    driver.settled = { [unowned self] in
      if controller?.isWorking == true && spinnerSource == nil { turnSpinner() }
    }
  }

  deinit {
    if let spinnerSource { g_source_remove(spinnerSource) }
    if let repeatSource { g_source_remove(repeatSource) }
    for source in sources { g_source_remove(source) }
    shell.destroySurface()
  }

  // MARK: Showing

  /// The popover shown in this process, for the desktop agent's `dismiss`.
  private nonisolated(unsafe) static weak var shown: LayerPopover?

  /// Dismisses the popover being shown, if any, as Esc does.
  static func dismissShown() { shown?.dismiss() }

  static var isShowing: Bool { shown != nil }

  func presentWaiting(_ message: String?) {
    Self.shown = self
    if isHidden {
      do {
        try shell.createSurface(outputIndex: outputIndex, namespace: Self.namespace)
      } catch {
        return fail(error)
      }
      isHidden = false
      shownFrame = nil
    }
    waiting = true
    if spinnerSource == nil { turnSpinner() }
    redraw()
    // Until the compositor has configured and shown the surface (or a second passed).
    runLoop(for: .seconds(1)) { !(isMapped && shell.isConfigured) && failure == nil && signal == nil }
  }

  private func turnSpinner() {
    spinnerSource = GObjectBridge.after(.milliseconds(80)) { [unowned self] in
      spinnerSource = nil
      guard waiting || controller?.isWorking == true else { return }
      spinnerFrame += 1
      redraw()
      turnSpinner()
    }
  }

  func hide() {
    if Self.shown === self { Self.shown = nil }
    waiting = false
    stopRepeating()
    guard !isHidden else { return }
    isMapped = false
    isHidden = true
    shell.destroySurface()
    // The compositor has unmapped it, and given the focus back, before the caller goes on.
    _ = try? shell.roundTrip()
  }

  func iterate(for span: Duration) { runLoop(for: span) { true } }

  private func runLoop(for span: Duration, while condition: () -> Bool) {
    MainLoop.run(until: .after(span), while: condition)
  }

  /// A dismissal kept from before (`dismissed`, never reset: one that came
  /// while the surface was mapped, or between two waits) ends it at once.
  func wait<Value>(for work: @escaping () throws -> Value, interrupt: @escaping () -> Void) throws -> Value? {
    if !dismissed && signal == nil && failure == nil {
      let call = BackgroundCall(work, whenDone: { g_main_context_wakeup(nil) })
      while call.result == nil && !dismissed && signal == nil && failure == nil { g_main_context_iteration(nil, 1) }
      if let result = call.result { return try result.get() }
      interrupt()
      call.wait()
    }
    if let signal { throw DesktopPopoverError.interrupted(signal: signal) }
    if let failure { throw failure }
    return nil
  }

  func run(_ content: any PopoverContent, first: ViewTree) throws -> String?? {
    if let signal { throw DesktopPopoverError.interrupted(signal: signal) }
    if let failure { throw failure }
    if dismissed { return nil }
    waiting = false
    return try driver.run(content, first: first) { failure }
  }

  var interruption: Signal? { signal }

  func offerCopy() {
    offersCopy = true
    redraw()
  }

  // MARK: Input

  private func handle(_ events: [LayerShellDisplay.Event]) {
    for event in events {
      switch event {
      case .configured:
        // The size is ours (set_size); a first configure lets the surface map.
        if !isMapped { redraw() }
      case .closed:
        dismiss()
      case .focusIn:
        hasFocus = true
      case .focusOut:
        // A click elsewhere: the popover goes, as iOS's does. Not when the
        // keyboard itself went (unplugged, a virtual keyboard's client
        // done), which the compositor says just after the focus left.
        stopRepeating()
        guard hasFocus else { continue }
        hasFocus = false
        _ = GObjectBridge.after(Self.focusLossPatience) { [weak self] in
          guard let self, !hasFocus, shell.hasKeyboard else { return }
          dismiss()
        }
      case .key(let keysym, let text, let modifiers, let keycode, let repeats):
        stopRepeating()
        key(keysym, text: text, modifiers: modifiers)
        keyRepeat = shell.keyRepeat
        if let wait = keyRepeat.pressed(keycode: keycode, repeats: repeats) {
          repeatedKey = (keysym, text, modifiers)
          scheduleRepeat(after: wait)
        }
      case .keyReleased(let keycode):
        if keyRepeat.released(keycode: keycode) { stopRepeating() }
      case .button(let x, let y, let button):
        guard button == Self.leftButton else { continue }
        press(atX: x, y: y)
      case .outside:
        // A click elsewhere on the output, which the catcher took: the
        // popover goes (sway 1.7 keeps the keyboard focus on it, so the
        // focus alone would not say so).
        dismiss()
      case .touchDown(let id, let x, let y, let inside):
        if touches.down(id: id, x: x, y: y, inside: inside) == .dismiss { dismiss() }
      case .touchUp(let id):
        if case .tap(let x, let y) = touches.up(id: id) { press(atX: x, y: y) }
      case .touchCancel:
        touches.cancel()
      case .scale:
        // The output's scale changed: drawn again at the new one (same place, same size in logical pixels).
        if isMapped { redraw() }
      case .bufferFree:
        if redrawWhenFree {
          redrawWhenFree = false
          redraw()
        }
      }
    }
  }

  /// A click or a tap at `x`, `y` of the surface: the control there pressed (or focused, a field).
  private func press(atX x: Double, y: Double) {
    guard let painted, let control = painted.control(atX: Int(x), y: Int(y)) else { return }
    click(control.id, isEnabled: control.isEnabled)
  }

  private func scheduleRepeat(after wait: Duration) {
    repeatSource = GObjectBridge.after(wait) { [unowned self] in
      repeatSource = nil
      guard keyRepeat.held != nil, let repeatedKey, let interval = keyRepeat.interval else { return }
      key(repeatedKey.keysym, text: repeatedKey.text, modifiers: repeatedKey.modifiers)
      // Still held (Esc or a press may have ended the popover meanwhile).
      if keyRepeat.held != nil && !isHidden { scheduleRepeat(after: interval) }
    }
  }

  private func stopRepeating() {
    keyRepeat.stop()
    repeatedKey = nil
    if let repeatSource { g_source_remove(repeatSource) }
    repeatSource = nil
  }

  /// How long after the focus left the popover checks that a keyboard is still there.
  static let focusLossPatience = Duration.milliseconds(150)

  /// Linux's code of the left button (BTN_LEFT).
  static let leftButton: UInt32 = 0x110

  private enum Key {
    static let escape: UInt32 = 0xff1b
    static let tab: UInt32 = 0xff09
    static let leftTab: UInt32 = 0xfe20
    static let returnKey: UInt32 = 0xff0d
    static let keypadEnter: UInt32 = 0xff8d
    static let space: UInt32 = 0x20
    static let backSpace: UInt32 = 0xff08
    static let left: UInt32 = 0xff51
    static let up: UInt32 = 0xff52
    static let right: UInt32 = 0xff53
    static let down: UInt32 = 0xff54
  }

  private func key(_ keysym: UInt32, text: String, modifiers: LayerShellDisplay.Modifiers) {
    if keysym == Key.escape { return dismiss() }
    if modifiers.contains(.alt) && (text == "c" || text == "C" || keysym == 0x63 || keysym == 0x43) && offersCopy {
      copyPressed = true
      return dispatch(.dismissAfterCall)
    }
    guard var controller, controller.ending == nil else { return }
    let focus = controller.focus
    switch keysym {
    case Key.tab: dispatch(.moveFocus(by: modifiers.contains(.shift) ? -1 : 1))
    case Key.leftTab: dispatch(.moveFocus(by: -1))
    case Key.down: dispatch(.moveFocus(by: 1))
    case Key.up: dispatch(.moveFocus(by: -1))
    case Key.right where !controller.isField(focus): dispatch(.moveFocus(by: 1))
    case Key.left where !controller.isField(focus): dispatch(.moveFocus(by: -1))
    case Key.returnKey, Key.keypadEnter:
      guard let focus else { return }
      dispatch(.action(controller.isField(focus) ? .submit(focus) : .press(focus)))
    case Key.space where !controller.isField(focus):
      if let focus { dispatch(.action(.press(focus))) }
    case Key.backSpace:
      guard let field = controller.isField(focus) ? focus : nil else { return }
      dispatch(.action(.edit(field, text: String(controller.text(of: field).dropLast()))))
      redraw()
    default:
      guard !text.isEmpty, !modifiers.contains(.control), !modifiers.contains(.alt),
        text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f })
      else { return }
      let field: String
      if controller.isField(focus), let focus {
        field = focus
      } else if let target = controller.typingTarget {
        controller.focus(on: target)
        self.controller = controller
        field = target
      } else {
        return
      }
      dispatch(.action(.edit(field, text: controller.text(of: field) + text)))
      redraw()
    }
  }

  private func click(_ id: String, isEnabled: Bool) {
    if id == Self.copyID {
      copyPressed = true
      return dispatch(.dismissAfterCall)
    }
    guard isEnabled, let controller, controller.ending == nil else { return }
    dispatch(.focused(id))
    if controller.isField(id) {
      redraw()
    } else {
      dispatch(.action(.press(id)))
    }
  }

  private func dismiss() {
    guard controller != nil else {
      dismissed = true
      return
    }
    dispatch(.dismiss)
  }

  private func fail(_ error: any Error) {
    fail(error as? DesktopPopoverError ?? .layerSurfaceFailed("\(error)"))
  }

  private func fail(_ error: DesktopPopoverError) {
    failure = failure ?? error
    isMapped = false
    if controller != nil { dispatch(.dismiss) } else { dismissed = true }
    g_main_context_wakeup(nil)
  }

  // MARK: The controller

  private func dispatch(_ event: PopoverEvent) { driver.dispatch(event) }

  // MARK: Drawing

  /// The body's padding (`.popover-body`), the gap under the title row, the content's widest.
  static let padding = (horizontal: 14, vertical: 12)
  static let titleGap = 10

  /// Lays out and paints the controller's state (or the waiting spinner), placing the surface first.
  private func redraw() {
    guard failure == nil else { return }
    let expanded = content?.wantsFullScreen ?? false
    let contentWidth =
      expanded ? min(screen.width * 3 / 5, 900) : Int(PopoverWindow.maximumContentWidth)
    let widget: Widget =
      controller.map { WidgetPlan.widget(for: $0.shownTree.root) } ?? .progress(label: nil, fraction: nil)
    let working = controller?.isWorking ?? false
    let measure: LayerSceneLayout.Measure = { [painter] text, style, wrap in
      painter.measure(text, style: style, wrapWidth: wrap)
    }
    // The title row: the provider's name, Copy Translation when offered, a spinner while working.
    var header: [Widget] = [.label(title, style: .title), .spacer]
    if offersCopy {
      header.append(.button(id: Self.copyID, isSensitive: true, content: .label("Copy Translation", style: .body)))
    }
    if working && controller != nil { header.append(.progress(label: nil, fraction: nil)) }
    func tree(_ header: [Widget]) -> Widget {
      .box(
        .vertical, spacing: Self.titleGap, alignment: .start,
        children: [.box(.horizontal, spacing: 8, alignment: .center, children: header), widget])
    }
    // The natural width first (the spacer an empty box, which takes its gap but no room), then laid
    // out at it: the spinner at the right edge.
    let empty = Widget.box(.horizontal, spacing: 0, alignment: .center, children: [])
    let natural = LayerSceneLayout.layout(
      tree(header.map { $0 == .spacer ? empty : $0 }), width: contentWidth, measure: measure)
    var layout = LayerSceneLayout.layout(tree(header), width: natural.width, measure: measure)
    let maximumHeight = expanded ? screen.height * 4 / 5 : Int(PopoverWindow.maximumContentHeight) + 60
    layout.height = min(layout.height, maximumHeight)
    let body = (width: layout.width + 2 * Self.padding.horizontal, height: layout.height + 2 * Self.padding.vertical)

    var effective = placement
    var frameScreen = screen
    if expanded || (placement.anchor == nil && placement.selection == nil) {
      effective = DesktopPlacement(anchor: nil, arrowEdge: placement.arrowEdge)
      if !expanded, let area { frameScreen = area }
    }
    var frame = effective.frame(width: body.width, height: body.height, screen: frameScreen, keeping: shownFrame)
    // Centred in the focused window, it stays on the output.
    frame.window.x = min(max(frame.window.x, screen.x), max(screen.maxX - frame.window.width, screen.x))
    frame.window.y = min(max(frame.window.y, screen.y), max(screen.maxY - frame.window.height, screen.y))
    shownFrame = frame
    let outline = PopoverOutline(
      width: frame.window.width, height: frame.window.height, arrowEdge: frame.arrow?.edge,
      arrowOffset: frame.arrow?.offset ?? 0)
    let placed = layout.offset(by: outline.body.x + Self.padding.horizontal, outline.body.y + Self.padding.vertical)
    shell.place(
      x: frame.window.x - screen.x, y: frame.window.y - screen.y, width: frame.window.width,
      height: frame.window.height)
    guard shell.isConfigured else { return }
    // Every buffer still read by the compositor (frames asked for faster
    // than it shows them): this state is drawn once one is free.
    guard shell.hasFreeBuffer else {
      redrawWhenFree = true
      return
    }
    let spinner = spinnerFrame
    let focus = controller?.focus
    do {
      try shell.drawFrame(width: frame.window.width, height: frame.window.height) { pixels, stride, scale in
        painter.paint(
          into: pixels, width: frame.window.width, height: frame.window.height, scale: scale, stride: stride,
          outline: outline, content: placed, focus: focus, spinnerFrame: spinner)
      }
      painted = placed
      isMapped = true
    } catch {
      fail(error)
    }
  }

  /// The id of the title row's Copy Translation button: not a provider's control.
  static let copyID = "translation-host.copy"
}
