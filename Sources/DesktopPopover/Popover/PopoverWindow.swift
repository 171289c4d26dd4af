import CGtk
import Presentation
import Service
import System
import TranslationViewTree

/// The popover's window: undecorated, an arrow toward the anchor, the
/// provider's title, and its content as native widgets. It shows one
/// content at a time until the content finishes or the person dismisses it.
///
/// Everything here runs on the thread that initialised GTK. What to call
/// and when is `PopoverController`'s: calls to the content run on another
/// thread (`BackgroundCall`), one at a time, so the window stays responsive
/// and Esc can interrupt a provider that hangs; presses and edits made
/// meanwhile wait in order (edits of one field merge), and a field being
/// typed into keeps what the person typed. The main loop sleeps until a
/// source fires: the call's wake descriptor, the content's change watch,
/// the controller's next deadline, a signal, or GTK's own events.
final class PopoverWindow {
  typealias WidgetPointer = GObjectBridge.WidgetPointer

  /// The tallest the content grows before it scrolls, unless expanded.
  static let maximumContentHeight: Int32 = 420
  /// The widest the content grows before its text wraps, unless expanded:
  /// some 52 characters at the usual font size.
  static let maximumContentWidth: Int32 = 420
  /// The body's padding, left and right (`.popover-body` in `GtkSession`'s style sheet).
  static let bodyPadding: Int32 = 28

  private let display: OpaquePointer
  let x11: X11Session?
  private let window: WidgetPointer
  private let titleLabel: WidgetPointer
  private let spinner: WidgetPointer
  private let header: WidgetPointer
  /// Whether the person pressed Copy Translation (`offerCopy`), which ends the content.
  private(set) var copyPressed = false
  private let scroller: WidgetPointer
  /// Keeps the body within `maximumContentWidth` and its padding.
  private let widthLimit: WidgetPointer
  /// The body between the side arrows: what is measured to place the window.
  private let middle: WidgetPointer
  private var arrows: [ArrowEdge: WidgetPointer] = [:]
  /// Draws the outline (body and arrow in one, a shadow with a compositor) behind the widgets.
  private let background: WidgetPointer
  private var placement: DesktopPlacement
  private var arrow: (edge: ArrowEdge, offset: Int)?
  private var placedSize: (Int32, Int32)?
  /// Where the window was placed last: it stays there while it can (`DesktopPlacement.frame(…keeping:)`).
  private var shownFrame: DesktopPlacement.Frame?
  /// The transparent margin around the outline for its shadow: only with
  /// a compositor (X11), which alone draws a translucent window.
  private let shadowMargin: Int
  /// The outline last given to the X window as its shape.
  private var shapedOutline: PopoverOutline?

  /// The controller, its call, watch and deadline.
  private let driver: PopoverDriver
  private var content: (any PopoverContent)? { driver.content }
  private var controller: PopoverController? { driver.controller }
  /// What the widgets show now, and whether at the expanded size.
  private var tree: ViewTree?
  private var shownExpanded = false
  private var controls: [String: WidgetPointer] = [:]
  /// Set by Esc, a click elsewhere, a closed window or the agent's `dismiss`
  /// while no content runs, and kept: a dismissal that comes while the window
  /// paints its first frame, or between two waits, ends the next wait or
  /// content at once (reset by none of them, it is never lost).
  private var dismissed = false
  private var signal: Signal?
  private var sources: [UInt32] = []
  /// Whether the window has had the keyboard focus: losing it then dismisses the popover.
  private var wasActive = false

  /// A window titled `title` on `display`, not shown yet.
  init(display: OpaquePointer, title: String, placement: DesktopPlacement) throws {
    driver = try PopoverDriver()
    self.display = display
    self.x11 = X11Session(display)
    self.placement = placement
    window = gtk_window_new()
    gtk_window_set_title(GObjectBridge.cast(window), title)
    gtk_window_set_decorated(GObjectBridge.cast(window), 0)
    gtk_window_set_resizable(GObjectBridge.cast(window), 0)
    gtk_widget_add_css_class(window, "translation-popover")

    titleLabel = WidgetFactory.label(title, bold: true)
    gtk_widget_set_hexpand(titleLabel, 1)
    spinner = gtk_spinner_new()
    gtk_widget_set_visible(spinner, 0)
    header = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
    gtk_box_append(GObjectBridge.cast(header), titleLabel)
    gtk_box_append(GObjectBridge.cast(header), spinner)

    scroller = gtk_scrolled_window_new()
    gtk_scrolled_window_set_policy(GObjectBridge.cast(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
    gtk_scrolled_window_set_propagate_natural_height(GObjectBridge.cast(scroller), 1)
    gtk_scrolled_window_set_propagate_natural_width(GObjectBridge.cast(scroller), 1)
    gtk_scrolled_window_set_max_content_height(GObjectBridge.cast(scroller), Self.maximumContentHeight)

    let body = gtk_box_new(GTK_ORIENTATION_VERTICAL, 10)!
    gtk_widget_add_css_class(body, "popover-body")
    gtk_box_append(GObjectBridge.cast(body), header)
    gtk_box_append(GObjectBridge.cast(body), scroller)

    widthLimit = WidthLimit.make(around: body, width: Self.maximumContentWidth + Self.bodyPadding)

    shadowMargin = x11 != nil && gdk_display_is_composited(display) != 0 ? OutlinePainter.shadowMargin : 0
    background = gtk_drawing_area_new()!
    middle = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
    let outer = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
    for edge in [ArrowEdge.top, .leading] { arrows[edge] = makeArrow(edge) }
    gtk_box_append(GObjectBridge.cast(outer), arrows[.top])
    gtk_box_append(GObjectBridge.cast(middle), arrows[.leading])
    gtk_box_append(GObjectBridge.cast(middle), widthLimit)
    for edge in [ArrowEdge.bottom, .trailing] { arrows[edge] = makeArrow(edge) }
    gtk_box_append(GObjectBridge.cast(middle), arrows[.trailing])
    gtk_box_append(GObjectBridge.cast(outer), middle)
    gtk_box_append(GObjectBridge.cast(outer), arrows[.bottom])

    // The outline is drawn under the widgets, as large as the window.
    let overlay = gtk_overlay_new()!
    gtk_overlay_set_child(GObjectBridge.cast(overlay), background)
    gtk_overlay_add_overlay(GObjectBridge.cast(overlay), outer)
    gtk_overlay_set_measure_overlay(GObjectBridge.cast(overlay), outer, 1)
    gtk_widget_set_margin_top(outer, Int32(shadowMargin))
    gtk_widget_set_margin_bottom(outer, Int32(shadowMargin))
    gtk_widget_set_margin_start(outer, Int32(shadowMargin))
    gtk_widget_set_margin_end(outer, Int32(shadowMargin))
    gtk_window_set_child(GObjectBridge.cast(window), overlay)
    GObjectBridge.setDrawFunction(background) { [unowned self] cairo, width, height in
      drawOutline(cairo, width: Int(width), height: Int(height))
    }

    let keys = gtk_event_controller_key_new()!
    gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
    GObjectBridge.onKeyPressed(UnsafeMutableRawPointer(keys)) { [unowned self] keyval, _ in
      guard keyval == UInt32(GDK_KEY_Escape) else { return false }
      dismiss()
      return true
    }
    gtk_widget_add_controller(window, keys)
    // A popover goes when the person clicks elsewhere or switches away, as iOS's does
    // (on X11; a Wayland compositor may move the focus while it places the popover).
    GObjectBridge.onNotify(UnsafeMutableRawPointer(window), property: "is-active") { [unowned self] in
      guard x11 != nil else { return }
      if gtk_window_is_active(GObjectBridge.cast(window)) != 0 {
        wasActive = true
      } else if wasActive && gtk_widget_get_visible(window) != 0 {
        dismiss()
      }
    }
    GObjectBridge.onRequest(window, "close-request") { [unowned self] in
      dismiss()
      return true
    }
    GObjectBridge.onNotify(UnsafeMutableRawPointer(window), property: "focus-widget") { [unowned self] in
      // No control has the focus only for a moment, while the widgets are built again: the controller keeps its own.
      guard controller != nil, let focused = focusedControl else { return }
      dispatch(.focused(focused))
    }
    for signal in [Signal.interrupt, .terminate, .hangUp] {
      sources.append(
        GObjectBridge.onUnixSignal(signal.rawValue) { [unowned self] in
          self.signal = signal
          if controller != nil { dispatch(.signal(signal)) }
        })
    }
    driver.redraw = { [unowned self] in redraw() }
    driver.callFinished = { [unowned self] in
      // The provider may have asked for more room (`expandSheet`) without a new tree.
      if let content, content.wantsFullScreen != shownExpanded, controller?.ending == nil { redraw() }
    }
  }

  deinit {
    for source in sources { g_source_remove(source) }
    gtk_window_destroy(GObjectBridge.cast(window))
  }

  // MARK: Showing

  /// The window shown in this process, for the desktop agent's `dismiss`.
  private nonisolated(unsafe) static weak var shown: PopoverWindow?

  /// Dismisses the window being shown, if any, as Esc does.
  static func dismissShown() {
    shown?.dismiss()
    LayerPopover.dismissShown()
  }

  /// Whether a popover window of this process is on the screen: shown and
  /// not hidden yet (a popover that has closed may still be pasting or
  /// ending its provider's session).
  static var isShowingWindow: Bool { shown != nil || LayerPopover.isShowing }

  /// Builds, styles and measures `sample` in the window without showing it
  /// (the desktop agent's warm-up): GTK's widget classes, the style sheet
  /// and the fonts are loaded then, not when a shortcut is pressed.
  func prepareUnshown(_ sample: Widget) {
    // Not realised: a window realised and destroyed unmapped leaves GTK 4.8
    // a surface event for it, which it handles after the window is gone.
    setContent(sample, controls: [:])
    var minimum: Int32 = 0
    var width: Int32 = 0
    var height: Int32 = 0
    gtk_widget_measure(window, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &width, nil, nil)
    gtk_widget_measure(window, GTK_ORIENTATION_VERTICAL, width, &minimum, &height, nil, nil)
  }

  /// Shows the window with a spinner and `message`, as soon as GTK can draw it.
  func presentWaiting(_ message: String?) {
    Self.shown = self
    setContent(.progress(label: message, fraction: nil), controls: [:])
    place()
    // Wayland, a window named: the compositor places the popover as its dialog.
    if x11 == nil, let parent = placement.parentWindow { WaylandDialog.attach(window, to: parent) }
    gtk_window_present(GObjectBridge.cast(window))
    if let x11, let surface = gtk_native_get_surface(GObjectBridge.cast(window)) { x11.keepAbove(surface) }
    waitForFirstFrame()
  }

  /// Runs the main loop until GTK has painted the window once (or for a
  /// second). New content that comes before the first frame (a warm
  /// service answers in a millisecond) can leave an X11 window at its
  /// first size for good, showing the spinner: GTK 4.8 then never applies
  /// the resize.
  private func waitForFirstFrame() {
    guard let surface = gtk_native_get_surface(GObjectBridge.cast(window)),
      let clock = gdk_surface_get_frame_clock(surface)
    else { return }
    final class Painted { var value = false }
    let painted = Painted()
    GObjectBridge.onSignal(UnsafeMutableRawPointer(clock), "after-paint") { painted.value = true }
    runLoop(for: .seconds(1)) { !painted.value }
  }

  /// Runs the main loop until the window has the keyboard focus, or for
  /// `timeout`: a Wayland client reads the selection only while it has the focus.
  func waitUntilActive(timeout: Duration) {
    runLoop(for: timeout) { gtk_window_is_active(GObjectBridge.cast(window)) == 0 && signal == nil }
  }

  /// Hides the window (before pasting into the window it covered).
  func hide() {
    if Self.shown === self { Self.shown = nil }
    gtk_widget_set_visible(window, 0)
    iterate(for: .milliseconds(50))
  }

  /// Runs the main loop for `span`, serving GTK (a clipboard request, a redraw).
  func iterate(for span: Duration) { runLoop(for: span) { true } }

  /// Runs the main loop, sleeping between its sources, while `condition`
  /// holds and `span` has not passed.
  private func runLoop(for span: Duration, while condition: () -> Bool) {
    MainLoop.run(until: .after(span), while: condition)
  }

  /// Runs `work` on another thread while the window stays responsive.
  /// - Returns: its value, or nil when the person dismissed the popover meanwhile.
  /// - Throws: `work`'s error, or `DesktopPopoverError.interrupted`.
  func wait<Value>(for work: @escaping () throws -> Value, interrupt: @escaping () -> Void) throws -> Value? {
    if !dismissed && signal == nil {
      let call = BackgroundCall(work, whenDone: { g_main_context_wakeup(nil) })
      while call.result == nil && !dismissed && signal == nil { g_main_context_iteration(nil, 1) }
      if let result = call.result { return try result.get() }
      interrupt()
      call.wait()
    }
    if let signal { throw DesktopPopoverError.interrupted(signal: signal) }
    return nil
  }

  /// Shows `content` from `first` until it finishes (its replacement, if any) or is dismissed (nil).
  func run(_ content: any PopoverContent, first: ViewTree) throws -> String?? {
    if let signal { throw DesktopPopoverError.interrupted(signal: signal) }
    if dismissed { return nil }
    return try driver.run(content, first: first)
  }

  var interruption: Signal? { signal }

  /// Adds a Copy Translation button to the title row (Alt+C): pressing it
  /// ends the content as a dismissal, once its call in progress is
  /// answered, with `copyPressed` set. For text that must not be replaced
  /// (it came from the clipboard), as iOS offers Copy in its place.
  func offerCopy() {
    let button = gtk_button_new_with_mnemonic("_Copy Translation")!
    gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
    gtk_box_append(GObjectBridge.cast(header), button)
    GObjectBridge.onSignal(UnsafeMutableRawPointer(button), "clicked") { [unowned self] in
      copyPressed = true
      // Not by interrupting the provider: its session translates the text for the copy.
      dispatch(.dismissAfterCall)
    }
  }

  // MARK: The content

  private func dismiss() {
    guard controller != nil else {
      dismissed = true
      return
    }
    dispatch(.dismiss)
  }

  /// Hands `event` to the controller and does what it asks.
  private func dispatch(_ event: PopoverEvent) { driver.dispatch(event) }

  private func setWorking(_ working: Bool) {
    gtk_widget_set_visible(spinner, working ? 1 : 0)
    working ? gtk_spinner_start(GObjectBridge.cast(spinner)) : gtk_spinner_stop(GObjectBridge.cast(spinner))
  }

  /// Draws the controller's state: the tree (rebuilt only when it changed;
  /// fields with edits still to send keep the text typed into them), the
  /// focus, the spinner.
  private func redraw() {
    guard let controller else { return }
    setWorking(controller.isWorking)
    if controller.tree != tree || controls.isEmpty || (content?.wantsFullScreen ?? false) != shownExpanded {
      show(controller.tree, shown: controller.shownTree, focus: controller.focus)
    } else if let focus = controller.focus, focus != focusedControl, let control = controls[focus] {
      gtk_widget_grab_focus(control)
    }
  }

  private func show(_ next: ViewTree, shown: ViewTree, focus: String?) {
    tree = next
    let plan = WidgetPlan.widget(for: shown.root)
    let typed = Set(shown.textFields.map(\.id)).filter { id in
      shown.textFields.first { $0.id == id }?.text != next.textFields.first { $0.id == id }?.text
    }
    let factory = WidgetFactory(
      onPress: { [unowned self] id in dispatch(.action(.press(id))) },
      onEdit: { [unowned self] id, text in dispatch(.action(.edit(id, text: text))) },
      onSubmit: { [unowned self] id in dispatch(.action(.submit(id))) })
    var controls: [String: WidgetPointer] = [:]
    let widget = factory.make(plan, along: .vertical, controls: &controls)
    setContent(widget, controls: controls)
    if let focus, let control = controls[focus] {
      gtk_widget_grab_focus(control)
      if typed.contains(focus) { gtk_editable_set_position(GObjectBridge.cast(control), -1) }
    }
    place()
  }

  private func setContent(_ plan: Widget, controls: [String: WidgetPointer]) {
    let factory = WidgetFactory(onPress: { _ in }, onEdit: { _, _ in }, onSubmit: { _ in })
    var unused: [String: WidgetPointer] = [:]
    setContent(factory.make(plan, along: .vertical, controls: &unused), controls: controls)
  }

  private func setContent(_ widget: WidgetPointer, controls: [String: WidgetPointer]) {
    self.controls = controls
    gtk_widget_set_margin_top(widget, 2)
    let expanded = content?.wantsFullScreen ?? false
    shownExpanded = expanded
    let width = expanded ? Int32(min(screen.width * 3 / 5, 900)) : Self.maximumContentWidth
    // The scrolled window measures its child's height for no particular
    // width; the limit answers with the height at the width it will get.
    gtk_scrolled_window_set_child(GObjectBridge.cast(scroller), WidthLimit.make(around: widget, width: width))
    gtk_scrolled_window_set_max_content_height(
      GObjectBridge.cast(scroller), expanded ? Int32(screen.height * 4 / 5) : Self.maximumContentHeight)
    gtk_scrolled_window_set_min_content_width(GObjectBridge.cast(scroller), expanded ? width : -1)
    WidthLimit.set(widthLimit, width: width + Self.bodyPadding)
  }

  /// The id of the control with keyboard focus (or holding the focused text of an entry).
  private var focusedControl: String? {
    guard let focus = gtk_root_get_focus(GObjectBridge.cast(window)) else { return nil }
    return controls.first { id, widget in widget == focus || gtk_widget_is_ancestor(focus, widget) != 0 }?.key
  }

  // MARK: Placement

  /// The monitor with the anchor (else the first), in screen pixels.
  private var screen: ScreenRect {
    let monitors = gdk_display_get_monitors(display)
    var first: ScreenRect?
    for index in 0..<g_list_model_get_n_items(monitors) {
      guard let item = g_list_model_get_item(monitors, index) else { continue }
      defer { g_object_unref(item) }
      var area = GdkRectangle()
      gdk_monitor_get_geometry(OpaquePointer(item), &area)
      let rect = ScreenRect(x: Int(area.x), y: Int(area.y), width: Int(area.width), height: Int(area.height))
      let selection = placement.selection.map { ScreenPoint(x: $0.x, y: $0.y) }
      if let anchor = placement.anchor ?? selection, rect.contains(anchor) { return rect }
      first = first ?? rect
    }
    return first ?? ScreenRect(x: 0, y: 0, width: 1024, height: 768)
  }

  /// Puts the window next to the anchor with its arrow toward it (X11:
  /// GTK 4 cannot place toplevels, the X window is moved); elsewhere the
  /// compositor places it and no arrow is drawn.
  private func place() {
    var minimum: Int32 = 0
    var width: Int32 = 0
    var height: Int32 = 0
    gtk_widget_measure(middle, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &width, nil, nil)
    gtk_widget_measure(middle, GTK_ORIENTATION_VERTICAL, width, &minimum, &height, nil, nil)
    let expanded = content?.wantsFullScreen ?? false
    let effective = x11 != nil && !expanded ? placement : DesktopPlacement(anchor: nil, arrowEdge: placement.arrowEdge)
    let frame = effective.frame(width: Int(width), height: Int(height), screen: screen, keeping: shownFrame)
    if x11 != nil { shownFrame = frame }
    arrow = frame.arrow
    for (edge, area) in arrows {
      gtk_widget_set_visible(area, edge == frame.arrow?.edge ? 1 : 0)
      gtk_widget_queue_draw(area)
    }
    gtk_widget_queue_draw(background)
    guard let x11, placedSize.map({ $0 != (width, height) }) ?? true else { return }
    placedSize = (width, height)
    let isFirst = gtk_widget_get_realized(window) == 0
    if isFirst { gtk_widget_realize(window) }
    guard let surface = gtk_native_get_surface(GObjectBridge.cast(window)) else { return }
    let margin = shadowMargin
    let (x, y) = (frame.window.x - margin, frame.window.y - margin)
    // Shaped before it is mapped: the first frame the server shows has no square around the outline.
    shape(
      PopoverOutline(
        width: frame.window.width, height: frame.window.height, arrowEdge: frame.arrow?.edge,
        arrowOffset: frame.arrow?.offset ?? 0))
    if isFirst {
      x11.makePopover(
        surface, x: x, y: y, width: frame.window.width + 2 * margin, height: frame.window.height + 2 * margin)
    } else {
      x11.move(surface, x: x, y: y)
    }
  }

  /// Gives the X window `outline`'s shape, unless it has it: the bounding
  /// shape without a compositor, only the input shape with one.
  private func shape(_ outline: PopoverOutline) {
    guard let x11, outline != shapedOutline, let surface = gtk_native_get_surface(GObjectBridge.cast(window)) else {
      return
    }
    shapedOutline = outline
    x11.setShape(surface, outline.rectangles, offset: shadowMargin, bounding: shadowMargin == 0)
  }

  /// Draws the outline for the window's actual size (`width` × `height`,
  /// the shadow's margin included), and shapes the window to it.
  private func drawOutline(_ cairo: OpaquePointer, width: Int, height: Int) {
    let margin = shadowMargin
    let outline = PopoverOutline(
      width: width - 2 * margin, height: height - 2 * margin, arrowEdge: arrow?.edge, arrowOffset: arrow?.offset ?? 0)
    guard outline.width > 2 * outline.radius, outline.height > 2 * outline.radius else { return }
    shape(outline)
    OutlinePainter.draw(outline, in: cairo, widget: background, margin: margin)
  }

  private func makeArrow(_ edge: ArrowEdge) -> WidgetPointer {
    let area = gtk_drawing_area_new()!
    let length = Int32(DesktopPlacement.arrowLength)
    if edge.isVertical {
      gtk_drawing_area_set_content_height(GObjectBridge.cast(area), length)
      gtk_widget_set_hexpand(area, 1)
    } else {
      gtk_drawing_area_set_content_width(GObjectBridge.cast(area), length)
      gtk_widget_set_vexpand(area, 1)
    }
    // A spacer: the outline behind the widgets draws the arrow.
    gtk_widget_set_visible(area, 0)
    return area
  }
}
