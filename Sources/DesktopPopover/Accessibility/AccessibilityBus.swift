import CAtspi
import System

/// The accessibility bus (AT-SPI, from at-spi2-core): where the desktop
/// popover finds the focused application's selected text.
///
/// Applications join it when the session runs its bus (`org.a11y.Bus` on
/// the session bus); GTK 3, GTK 4 and Qt 5 do by default. Without it, or
/// for an application that does not join, there is no `AccessibleText`
/// and the popover falls back to the PRIMARY selection.
package enum AccessibilityBus {
  /// How long one call to an application may take: a hung application
  /// must not hang the popover.
  static let callTimeout = Duration.milliseconds(800)
  /// The most objects looked at to find the focused one: a huge document
  /// (a spreadsheet's cells) must not make the popover wait.
  static let searchLimit = 4000

  /// Whether the bus was reached. `atspi_init` answers 0 when it was, 1
  /// when it had been called before and 2 when there is no bus; after a 2,
  /// or with a bus that does not answer, the library's next call ends the
  /// process (`g_error`: "Couldn't connect to accessibility bus"), so only
  /// a bus that accepted a connection and a 0 let the popover use it.
  private static let started: Bool = {
    // Only once the bus answered a connection (`AccessibilityBusAddress`).
    guard AccessibilityBusAddress.verified() != nil, atspi_init() == 0 else { return false }
    atspi_set_timeout(Int32(callTimeout.pollMilliseconds), Int32(callTimeout.pollMilliseconds))
    return true
  }()

  /// The focused text field with a selection, in the active window of an
  /// application other than this process; nil when there is none, or no
  /// accessibility bus.
  ///
  /// - Parameter processID: the process that owns the window with the
  ///   keyboard focus, when the display says (X11's `_NET_WM_PID`): only
  ///   that application's field counts, so that an application that wrongly
  ///   says its window is active cannot supply the text.
  package static func focusedText(processID: Int32?) -> AccessibleText? {
    guard started, let desktop = atspi_get_desktop(0) else { return nil }
    defer { g_object_unref(UnsafeMutableRawPointer(desktop)) }
    let ownID = Syscalls.processID
    var budget = searchLimit
    for application in children(of: desktop) {
      defer { g_object_unref(UnsafeMutableRawPointer(application)) }
      var error: UnsafeMutablePointer<GError>?
      let pid = Int32(truncatingIfNeeded: atspi_accessible_get_process_id(application, &error))
      guard succeeded(&error), pid != ownID, processID.map({ $0 == pid }) ?? true else { continue }
      for window in children(of: application) {
        defer { g_object_unref(UnsafeMutableRawPointer(window)) }
        // With the owner known, its windows count even when they do not say they are active.
        guard processID != nil || has(window, ATSPI_STATE_ACTIVE) else { continue }
        guard let focused = focusedDescendant(of: window, budget: &budget) else { continue }
        if let text = selectedText(focused, application: application, processID: pid) { return text }
        g_object_unref(UnsafeMutableRawPointer(focused))
      }
    }
    return nil
  }

  /// The field's selected text, taking over `object`'s reference; nil (and
  /// the reference left to the caller) when it has no text or no selection.
  private static func selectedText(
    _ object: UnsafeMutablePointer<AtspiAccessible>, application: UnsafeMutablePointer<AtspiAccessible>,
    processID: Int32
  ) -> AccessibleText? {
    guard let text = atspi_accessible_get_text_iface(object) else { return nil }
    g_object_unref(UnsafeMutableRawPointer(text))  // the object holds it
    var error: UnsafeMutablePointer<GError>?
    guard atspi_text_get_n_selections(text, &error) > 0, succeeded(&error),
      let range = atspi_text_get_selection(text, 0, &error)
    else {
      _ = succeeded(&error)
      return nil
    }
    let bounds = (Int(range.pointee.start_offset), Int(range.pointee.end_offset))
    g_free(range)
    guard succeeded(&error), bounds.0 >= 0, bounds.0 < bounds.1 else { return nil }
    let selection = bounds.0..<bounds.1
    guard let content = atspi_text_get_text(text, Int32(bounds.0), Int32(bounds.1), &error) else {
      _ = succeeded(&error)
      return nil
    }
    let selected = String(cString: content)
    g_free(content)
    guard succeeded(&error), !selected.isEmpty else { return nil }
    let role = atspi_accessible_get_role(object, &error)
    _ = succeeded(&error)
    let kind: AccessibleText.Kind =
      role == ATSPI_ROLE_TERMINAL
      ? .terminal
      : isEditable(object) && has(object, ATSPI_STATE_EDITABLE) ? .editable : .readOnly
    let name = string(atspi_accessible_get_name(application, &error))
    _ = succeeded(&error)
    let toolkit = string(atspi_accessible_get_toolkit_name(object, &error))
    _ = succeeded(&error)
    return AccessibleText(
      object: object, application: name ?? "the application", processID: processID, toolkit: toolkit ?? "",
      kind: kind, selection: selection, text: selected)
  }

  /// The focused object under `root` (a window), depth first through the
  /// visible objects only, owned by the caller; nil when none is focused.
  private static func focusedDescendant(
    of root: UnsafeMutablePointer<AtspiAccessible>, budget: inout Int
  ) -> UnsafeMutablePointer<AtspiAccessible>? {
    for child in children(of: root) {
      budget -= 1
      if budget < 0 || !has(child, ATSPI_STATE_VISIBLE) {
        g_object_unref(UnsafeMutableRawPointer(child))
        if budget < 0 { return nil }
        continue
      }
      if has(child, ATSPI_STATE_FOCUSED) { return child }
      let found = focusedDescendant(of: child, budget: &budget)
      g_object_unref(UnsafeMutableRawPointer(child))
      if let found { return found }
    }
    return nil
  }

  /// `parent`'s children, each owned by the caller.
  private static func children(
    of parent: UnsafeMutablePointer<AtspiAccessible>
  ) -> [UnsafeMutablePointer<AtspiAccessible>] {
    var error: UnsafeMutablePointer<GError>?
    let count = atspi_accessible_get_child_count(parent, &error)
    guard succeeded(&error), count > 0 else { return [] }
    return (0..<min(count, 2000)).compactMap { index in
      let child = atspi_accessible_get_child_at_index(parent, index, &error)
      return succeeded(&error) ? child : nil
    }
  }

  private static func isEditable(_ object: UnsafeMutablePointer<AtspiAccessible>) -> Bool {
    guard let editable = atspi_accessible_get_editable_text_iface(object) else { return false }
    g_object_unref(UnsafeMutableRawPointer(editable))
    return true
  }

  private static func has(_ object: UnsafeMutablePointer<AtspiAccessible>, _ state: AtspiStateType) -> Bool {
    guard let states = atspi_accessible_get_state_set(object) else { return false }
    defer { g_object_unref(UnsafeMutableRawPointer(states)) }
    return atspi_state_set_contains(states, state) != 0
  }

  private static func string(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
    guard let pointer else { return nil }
    defer { g_free(pointer) }
    return String(cString: pointer)
  }

  /// Whether a call succeeded; frees its error (and clears it for the next call).
  static func succeeded(_ error: inout UnsafeMutablePointer<GError>?) -> Bool {
    guard let failure = error else { return true }
    g_error_free(failure)
    error = nil
    return false
  }
}
