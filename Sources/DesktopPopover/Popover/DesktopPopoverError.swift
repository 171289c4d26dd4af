import System

/// Why the desktop popover could not be shown, or ended early.
package enum DesktopPopoverError: HostErrorConvertible, Equatable {
  /// No graphical session to show a window in, or GTK could not open it.
  case noDisplay(String)
  /// `--selection` found no text in the PRIMARY selection nor the clipboard.
  case nothingSelected
  /// Wayland without `wl-copy`: nothing can keep the clipboard once this process exits.
  case noClipboardKeeper
  /// The X server refused the holder's claim of the clipboard.
  case clipboardNotTaken
  /// Replace was asked for text that cannot be replaced in place (read-only, or a terminal).
  case notReplaceable(application: String)
  /// The selected text changed in the application between translating and replacing.
  case selectionChanged(application: String)
  /// The application refused a step of the replacement (AT-SPI); its text was put back as it was.
  case replaceFailed(application: String, step: String)
  /// Wayland: the translation cannot be typed (no virtual keyboard, the compositor refused, a control character).
  case cannotType(String)
  /// Wayland: the window the text was selected in does not have the keyboard focus, so nothing was typed.
  case focusMoved(application: String)
  /// Wayland: typing stopped part way (the focus moved, the compositor went away).
  case typingStopped(application: String, typed: Int, of: Int, reason: String)
  /// A signal asked the host to stop (SIGINT, SIGTERM, SIGHUP).
  case interrupted(signal: Signal)
  /// The popover's layer surface failed once shown (the compositor broke the connection, no shared memory).
  case layerSurfaceFailed(String)

  package var description: String {
    switch self {
    case .noDisplay(let display):
      display.isEmpty
        ? "no graphical session (neither WAYLAND_DISPLAY nor DISPLAY is set), so the desktop popover cannot be shown"
        : "cannot open the display '\(display)', so the desktop popover cannot be shown (is the session running?)"
    case .nothingSelected:
      "nothing is selected: select text in an application first (the PRIMARY selection and the clipboard hold no text)"
    case .noClipboardKeeper:
      "cannot keep the text on the Wayland clipboard after exiting: install wl-clipboard (wl-copy)"
    case .clipboardNotTaken:
      "the X server did not give the clipboard to the holder: the process that started it keeps the contents"
    case .notReplaceable(let application):
      "the selected text in \(application) cannot be changed, so it was not replaced: copy the translation instead"
    case .selectionChanged(let application):
      "the selected text in \(application) changed while it was translated, so it was not replaced: select it and try again"
    case .replaceFailed(let application, let step):
      "\(application) did not let the translation in (it refused to \(step)); its text is as it was: copy the translation instead"
    case .layerSurfaceFailed(let reason):
      "the popover's layer surface failed (\(reason)): set TRANSLATION_HOST_LAYER_SHELL=0 to show it as a window instead"
    case .cannotType(let reason):
      "the translation was not typed in place: \(reason)"
    case .focusMoved(let application):
      "\(application) no longer has the keyboard focus, so the translation was not typed (it would have gone to another window)"
    case .typingStopped(let application, let typed, let count, let reason):
      "typing the translation into \(application) stopped after \(typed) of \(count) characters (\(reason)): undo there (Ctrl+Z)"
    case .interrupted(let signal):
      "interrupted by \(signal == .interrupt ? "Ctrl-C" : signal.description)"
    }
  }

  package var hostError: HostError {
    switch self {
    case .interrupted(let signal): HostError(.interrupted(signal: signal.rawValue), description)
    case .nothingSelected: HostError(.nothingToTranslate, description)
    case .noDisplay, .noClipboardKeeper, .clipboardNotTaken, .notReplaceable, .selectionChanged, .replaceFailed,
      .layerSurfaceFailed, .cannotType, .focusMoved, .typingStopped:
      HostError(.failure, description)
    }
  }
}
