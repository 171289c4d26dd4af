import CGtk
import Core
import Presentation
import Service
import System
import TranslationViewTree

/// The translation popover on the desktop, as a GTK 4 window: the
/// counterpart of SwiftUI's `translationPresentation` for any application
/// on X11 or Wayland.
///
/// It asks for the source language first when it is not known, then shows
/// the provider's selected-text scene until the provider finishes or the
/// person dismisses it. The window is gone before `present` returns or throws.
package struct DesktopPopoverPresentation {
  /// Where the text comes from.
  package enum Source: Sendable {
    case text(String)
    /// The PRIMARY selection, else the clipboard; a replacement is pasted
    /// back into the window that had focus (X11), the one it came from, or
    /// typed into it (sway, `WaylandReplace`).
    case selection

    var isSelection: Bool {
      if case .selection = self { return true }
      return false
    }
  }

  package var placement: DesktopPlacement
  package var environment: [String: String]
  /// Tells the person what happened that the popover cannot show any more
  /// (a replacement left on the clipboard instead of pasted).
  package var note: (String) -> Void
  /// Keeps `text` on the clipboard after this process exits (X11 has no
  /// clipboard once its owner is gone): the CLI starts a holder process.
  package var keepOnClipboard: (String) -> Void

  package init(
    placement: DesktopPlacement, environment: [String: String], note: @escaping (String) -> Void,
    keepOnClipboard: @escaping (String) -> Void
  ) {
    self.placement = placement
    self.environment = environment
    self.note = note
    self.keepOnClipboard = keepOnClipboard
  }

  /// Shows `session`'s scene for the text from `source`, titled with the provider's name.
  /// - Returns: how it ended, and the text it was shown for.
  package func present(
    session: any SceneSession, source: Source, allowsReplacement: Bool, sourceLanguage: String?, targetLanguage: String?
  ) throws -> (outcome: PopoverOutcome, text: String) {
    let display = try GtkSession.open(environment: environment)
    var placement = placement
    // The window the selection is in, before the popover takes the focus.
    let x11 = X11Session(display)
    let previousFocus = x11?.focusedWindow
    let waylandTarget = x11 == nil && source.isSelection ? WaylandReplace(environment: environment) : nil
    if placement.anchor == nil { placement.anchor = x11?.pointer }
    let window = PopoverWindow(display: display, title: session.bundle.displayName, placement: placement)
    defer { window.hide() }
    window.presentWaiting(nil)

    let text: String
    switch source {
    case .text(let given): text = given
    case .selection: text = try Self.selectedText(display, window: window)
    }
    guard
      let language = try window.wait(
        for: { try SourceLanguage.of(text, given: sourceLanguage, session: session) }, interrupt: session.interruption)
    else { return (try Self.ending(window), text) }
    var chosen: String?
    switch language {
    case .known(let known):
      chosen = known
    case .ask(let options):
      let picker = LanguagePicker(options: options)
      guard case .some(let tag) = try window.run(picker, first: picker.tree) else { return (.dismissed, text) }
      chosen = tag
      window.presentWaiting(nil)
    }
    let target = targetLanguage ?? chosen.flatMap { PreferredLanguages.target(for: $0, environment: environment) }
    guard
      let first = try window.wait(
        for: {
          try session.openScene(
            inputText: text, allowsReplacement: allowsReplacement, sourceLanguage: chosen, targetLanguage: target)
        }, interrupt: session.interruption)
    else { return (try Self.ending(window), text) }
    let outcome: PopoverOutcome
    switch first {
    case .finished(let translation?): outcome = .replaced(translation)
    case .finished(nil): outcome = .finished
    case .view(let tree):
      switch try window.run(ProviderSceneContent(session: session), first: tree) {
      case .some(let translation?): outcome = .replaced(translation)
      case .some(nil): outcome = .finished
      case nil: outcome = .dismissed
      }
    }
    if case .replaced(let translation) = outcome, case .selection = source {
      if let waylandTarget {
        window.hide()
        if waylandTarget.type(translation, environment: environment, window: window) { return (outcome, text) }
      }
      paste(translation, display: display, window: window, x11: x11, into: previousFocus)
    }
    return (outcome, text)
  }

  /// How a wait that returned nothing ended: dismissed, or stopped by a signal.
  private static func ending(_ window: PopoverWindow) throws -> PopoverOutcome {
    if let signal = window.interruption { throw DesktopPopoverError.interrupted(signal: signal) }
    return .dismissed
  }

  /// The PRIMARY selection's text, else the clipboard's.
  private static func selectedText(_ display: OpaquePointer, window: PopoverWindow) throws -> String {
    window.waitUntilActive(timeout: .seconds(2))
    for clipboard in [gdk_display_get_primary_clipboard(display), gdk_display_get_clipboard(display)] {
      if let clipboard, let text = GObjectBridge.readText(clipboard), !text.isEmpty { return text }
    }
    throw DesktopPopoverError.nothingSelected
  }

  /// Puts `translation` in place of the selection: on X11, through the
  /// clipboard and Ctrl+V into the window that had focus, and only that
  /// one; the clipboard's text is then put back. Where that is not
  /// possible the translation stays on the clipboard and the person is told.
  private func paste(
    _ translation: String, display: OpaquePointer, window: PopoverWindow, x11: X11Session?, into target: UInt?
  ) {
    let clipboard = gdk_display_get_clipboard(display)!
    let previous = GObjectBridge.readText(clipboard)
    window.hide()
    gdk_clipboard_set_text(clipboard, translation)
    guard let x11, let target, x11.paste(into: target) else {
      keepOnClipboard(translation)
      note("the translation is on the clipboard: press Ctrl+V to paste it")
      return
    }
    // The application reads the clipboard when it handles the keys.
    window.iterate(for: .milliseconds(600))
    if let previous { keepOnClipboard(previous) }
  }
}
