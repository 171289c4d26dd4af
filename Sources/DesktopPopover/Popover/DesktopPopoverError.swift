import System

/// Why the desktop popover could not be shown, or ended early.
package enum DesktopPopoverError: HostErrorConvertible, Equatable {
  /// No graphical session to show a window in, or GTK could not open it.
  case noDisplay(String)
  /// `--selection` found no text in the PRIMARY selection nor the clipboard.
  case nothingSelected
  /// Wayland without `wl-copy`: nothing can keep the clipboard once this process exits.
  case noClipboardKeeper
  /// A signal asked the host to stop (SIGINT, SIGTERM, SIGHUP).
  case interrupted(signal: Signal)

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
    case .interrupted(let signal):
      "interrupted by \(signal == .interrupt ? "Ctrl-C" : signal.description)"
    }
  }

  package var hostError: HostError {
    switch self {
    case .interrupted(let signal): HostError(.interrupted(signal: signal.rawValue), description)
    case .nothingSelected: HostError(.nothingToTranslate, description)
    case .noDisplay, .noClipboardKeeper: HostError(.failure, description)
    }
  }
}
