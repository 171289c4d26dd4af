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
    /// typed into it (sway, `WaylandReplace`; elsewhere on Wayland the
    /// RemoteDesktop portal's keyboard, `PortalKeyboard`).
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
  /// Keeps contents on the clipboard after this process exits (X11 has no
  /// clipboard once its owner is gone): the CLI starts a holder process.
  package var keepOnClipboard: (ClipboardContents) -> Void

  package init(
    placement: DesktopPlacement, environment: [String: String], note: @escaping (String) -> Void,
    keepOnClipboard: @escaping (ClipboardContents) -> Void
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
    // A layer surface where the compositor has the layer shell (sway, KWin): GTK is not even started.
    var whyNoLayerShell = ""
    var layerShell = LayerShellDisplay(environment: environment, whyNot: &whyNoLayerShell)
    var display = layerShell == nil ? try GtkSession.open(environment: environment) : nil
    var placement = placement
    // The window and the field the selection is in, before the popover takes the focus.
    let x11 = display.flatMap { X11Session($0) }
    let focused = x11?.focused
    let sway = x11 == nil ? SwayIPC(environment: environment) : nil
    let swayFocused = layerShell != nil ? sway?.focusedFrame() : nil
    let waylandTarget = x11 == nil && source.isSelection ? WaylandReplace(environment: environment) : nil
    var selected: SelectedText?
    // On sway the focused window's process, as on X11 (GTK 4 on Wayland marks no window active over AT-SPI).
    let focusedProcess = focused?.processID ?? (layerShell != nil ? waylandTarget?.target.pid : nil)
    if case .selection = source, let field = AccessibilityBus.focusedText(processID: focusedProcess) {
      selected = SelectedText(text: field.text, origin: .accessible(field))
      if placement.anchor == nil {
        let origin = swayFocused.map { ScreenPoint(x: $0.content.x, y: $0.content.y) }
        placement.selection = field.extents(windowOrigin: focused?.origin ?? origin)
      }
    }
    if layerShell != nil && source.isSelection && selected == nil {
      // Without AT-SPI the selection is read through GTK's window, which must have the focus.
      layerShell = nil
      display = try GtkSession.open(environment: environment)
    }
    if placement.anchor == nil { placement.anchor = x11?.pointer }
    let window: any PopoverSurface
    if let layerShell {
      let point = placement.anchor ?? placement.selection.map { ScreenPoint(x: $0.x, y: $0.y) }
      let output = LayerOutput.choose(
        outputs: layerShell.outputs, layout: sway?.outputs() ?? [],
        point: point ?? swayFocused.map { ScreenPoint(x: $0.frame.x, y: $0.frame.y) })
      window = try LayerPopover(
        shell: layerShell, title: session.bundle.displayName, placement: placement, screen: output.screen,
        outputIndex: output.index, area: swayFocused?.frame, dark: GtkSession.prefersDark(environment))
    } else {
      window = try PopoverWindow(display: display!, title: session.bundle.displayName, placement: placement)
    }
    defer { window.hide() }
    window.presentWaiting(nil)

    let text: String
    var allowsReplacement = allowsReplacement
    switch source {
    case .text(let given): text = given
    case .selection:
      if selected == nil, let display, let window = window as? PopoverWindow {
        selected = try Self.selectedText(display, window: window, x11: x11, focused: focused)
      }
      guard selected != nil else { throw DesktopPopoverError.nothingSelected }
      text = selected!.text
      allowsReplacement = allowsReplacement && selected!.allowsReplacement
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
    let target = targetLanguage ?? chosen.flatMap { RequestLanguages.target(for: $0, environment: environment) }
    guard
      let first = try window.wait(
        for: {
          try session.openScene(
            inputText: text, allowsReplacement: allowsReplacement, sourceLanguage: chosen, targetLanguage: target)
        }, interrupt: session.interruption)
    else { return (try Self.ending(window), text) }
    // Text from the clipboard is never replaced: its translation can be copied instead.
    let copy = selected?.isFromClipboard == true ? chosen.flatMap { from in target.map { (from, $0) } } : nil
    if copy != nil && session.supports(.translate) { window.offerCopy() }
    var outcome: PopoverOutcome
    switch first {
    case .finished(let translation):
      outcome = try .finished(with: translation, for: text, provider: session.bundle.identifier)
    case .view(let tree):
      switch try window.run(ProviderSceneContent(session: session), first: tree) {
      case .some(let translation): outcome = try .finished(with: translation, for: text, provider: session.bundle.identifier)
      case nil: outcome = .dismissed
      }
    }
    if window.copyPressed, let copy {
      outcome = try copyTranslation(
        of: text, from: copy.0, to: copy.1, session: session, display: display, window: window)
    }
    if case .replaced(let translation) = outcome, let selected {
      put(translation, for: selected, display: display, window: window, x11: x11, waylandTarget: waylandTarget)
    }
    return (outcome, text)
  }

  /// Translates `text` with the provider (its headless translate) and puts
  /// the translation on the clipboard, where it stays after this process exits.
  private func copyTranslation(
    of text: String, from source: String, to target: String, session: any SceneSession, display: OpaquePointer?,
    window: any PopoverSurface
  ) throws -> PopoverOutcome {
    window.presentWaiting(nil)
    guard
      let translations = try window.wait(
        for: { try session.translate([text], from: source, to: target) }, interrupt: session.interruption),
      let translation = translations.first
    else { return try Self.ending(window) }
    window.hide()
    leaveOnClipboard(translation, display: display, because: nil, copied: true)
    return .finished
  }

  /// How a wait that returned nothing ended: dismissed, or stopped by a signal.
  private static func ending(_ window: any PopoverSurface) throws -> PopoverOutcome {
    if let signal = window.interruption { throw DesktopPopoverError.interrupted(signal: signal) }
    return .dismissed
  }

  /// The PRIMARY selection's text when it belongs to the focused window's
  /// application (or cannot be checked, on Wayland), else the clipboard's.
  private static func selectedText(
    _ display: OpaquePointer, window: PopoverWindow, x11: X11Session?, focused: FocusedWindow?
  ) throws -> SelectedText {
    window.waitUntilActive(timeout: .seconds(2))
    if let primary = gdk_display_get_primary_clipboard(display) {
      if let x11 {
        // Another window's selection is not the text a replacement would overwrite.
        if let focused, x11.primaryBelongs(to: focused), let text = GObjectBridge.readText(primary), !text.isEmpty {
          return SelectedText(text: text, origin: .primary(focused))
        }
      } else if let text = GObjectBridge.readText(primary), !text.isEmpty {
        return SelectedText(text: text, origin: .uncheckedPrimary)
      }
    }
    if let clipboard = gdk_display_get_clipboard(display), let text = GObjectBridge.readText(clipboard), !text.isEmpty {
      return SelectedText(text: text, origin: .clipboard)
    }
    throw DesktopPopoverError.nothingSelected
  }

  /// Puts `translation` where `selected` came from: in place through
  /// AT-SPI, or pasted into the window it came from, and only that one.
  /// Where that is not possible it stays on the clipboard and the person is told.
  private func put(
    _ translation: String, for selected: SelectedText, display: OpaquePointer?, window: any PopoverSurface,
    x11: X11Session?, waylandTarget: WaylandReplace?
  ) {
    switch selected.origin {
    case .accessible(let field) where field.kind == .editable:
      window.hide()
      do {
        try field.replaceSelection(with: translation)
      } catch {
        leaveOnClipboard(translation, display: display, because: error.description)
      }
    case .accessible(let field):
      // A terminal: pasted at its prompt, into the focused window of its application.
      let focused = x11?.focused.flatMap { $0.processID == field.processID || field.processID == 0 ? $0 : nil }
      paste(translation, display: display, window: window, x11: x11, into: focused, terminal: true)
    case .primary(let focused):
      paste(translation, display: display, window: window, x11: x11, into: focused, terminal: focused.isTerminal)
    case .uncheckedPrimary:
      window.hide()
      do {
        if let waylandTarget {
          // sway: typed into the window that had the focus, while sway confirms it has it again.
          try waylandTarget.type(translation, environment: environment, window: window)
        } else {
          // Elsewhere (GNOME, KDE): the RemoteDesktop portal's keyboard, where the portal offers it.
          // The compositor gives the focus back once the popover is gone; the portal cannot say to whom.
          window.iterate(for: PortalKeyboard.focusReturn)
          try PortalKeyboard(environment: environment).type(translation)
        }
      } catch {
        leaveOnClipboard(translation, display: display, because: error.description)
      }
    case .clipboard:
      break
    }
  }

  /// Keeps `translation` on the clipboard and says so; on Wayland without
  /// `wl-copy`, which alone could keep it, says that instead.
  private func leaveOnClipboard(
    _ translation: String, display: OpaquePointer?, because reason: String?, copied: Bool = false
  ) {
    let prefix = reason.map { $0 + "; " } ?? ""
    let x11 = display.flatMap { X11Session($0) }
    guard x11 != nil || ClipboardHolder.waylandCopyPath(environment: environment) != nil else {
      note(prefix + DesktopPopoverError.noClipboardKeeper.description + "; the translation is not on the clipboard")
      return
    }
    let said = (copied ? "the translation is copied" : "the translation is on the clipboard") + ": press Ctrl+V to paste it"
    guard let display else {
      // The layer surface's process has no GTK: wl-copy holds the translation.
      keepOnClipboard(ClipboardContents(text: translation))
      note(prefix + said)
      return
    }
    guard let clipboard = gdk_display_get_clipboard(display) else { return }
    gdk_clipboard_set_text(clipboard, translation)
    note(prefix + said)
    keep(ClipboardContents(text: translation), on: clipboard, x11: x11)
  }

  /// Keeps `contents` on `clipboard` once this process exits: a holder
  /// process takes them over from this process, which owns the clipboard. On X11 this process
  /// stays until the X server says the holder (or an application something
  /// was copied in since) owns the clipboard; a holder that does not take
  /// it is started once more, and if that one does not either, this
  /// process keeps the contents itself until something else is copied,
  /// and says so. Never does it exit with the contents owned by no one.
  private func keep(_ contents: ClipboardContents, on clipboard: OpaquePointer, x11: X11Session?) {
    keepOnClipboard(contents)
    guard let x11 else { return }
    if ClipboardHandOver.wait(x11: x11) { return }
    keepOnClipboard(contents)
    if ClipboardHandOver.wait(x11: x11) { return }
    guard x11.ownsClipboard else {
      note("the clipboard holder did not start and the clipboard now holds nothing: copy the text again")
      return
    }
    note(
      "the clipboard holder did not start: translation-host stays running and keeps the clipboard until something else is copied"
    )
    GObjectBridge.setContents(clipboard, contents)
    ClipboardHolder.serve(clipboard, contents, x11: x11)
  }

  /// Pastes `translation` into `target` through the clipboard (and the
  /// PRIMARY selection, which a terminal's Shift+Insert pastes); the
  /// clipboard is then put back as it was, every format.
  private func paste(
    _ translation: String, display: OpaquePointer?, window: any PopoverSurface, x11: X11Session?,
    into target: FocusedWindow?, terminal: Bool
  ) {
    guard let display, let clipboard = gdk_display_get_clipboard(display) else {
      window.hide()
      leaveOnClipboard(translation, display: nil, because: nil)
      return
    }
    var previous = GObjectBridge.readContents(clipboard)
    // No formats while another process owns the clipboard: GDK has not
    // learnt them (it asks the owner when the owner changes). Taking the
    // clipboard then would lose what it holds, unread.
    if previous?.formats.isEmpty == true, let x11, x11.clipboardOwner != nil, !x11.ownsClipboard {
      MainLoop.run(until: .after(.seconds(2))) { !hasFormats(clipboard) }
      previous = hasFormats(clipboard) ? GObjectBridge.readContents(clipboard) : nil
    }
    window.hide()
    gdk_clipboard_set_text(clipboard, translation)
    if terminal, let primary = gdk_display_get_primary_clipboard(display) { gdk_clipboard_set_text(primary, translation) }
    guard let x11, let target else {
      leaveOnClipboard(translation, display: display, because: nil)
      return
    }
    // The application reads the clipboard when it handles the keys: the
    // earlier clipboard comes back only once it has read the translation.
    let confirmation = PasteConfirmation(x11: x11, target: target.processID)
    guard x11.paste(into: target.window, terminal: terminal) else {
      leaveOnClipboard(translation, display: display, because: nil)
      return
    }
    guard confirmation.wait() else {
      let reason =
        "\(target.windowClass ?? "the application") did not take the paste within \(PasteConfirmation.timeout.components.seconds) s"
      leaveOnClipboard(translation, display: display, because: reason)
      return
    }
    guard let previous else {
      note(
        "the clipboard's earlier contents could not be read whole (its application did not answer), so the translation stays on it"
      )
      keep(ClipboardContents(text: translation), on: clipboard, x11: x11)
      return
    }
    if !previous.formats.isEmpty { keep(previous, on: clipboard, x11: x11) }
  }

  private func hasFormats(_ clipboard: OpaquePointer) -> Bool {
    guard let formats = gdk_clipboard_get_formats(clipboard) else { return false }
    var count = 0
    return gdk_content_formats_get_mime_types(formats, &count) != nil && count > 0
  }
}
