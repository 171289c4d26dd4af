import System

/// Why a command cannot reach the desktop.
enum DesktopError: HostErrorConvertible, Equatable {
  /// `--desktop` or `--selection` without a graphical session.
  case noGraphicalSession
  /// `translation-host-desktop`, which has GTK, is not where this installation keeps it.
  case notInstalled(searched: [String])
  /// It is there but could not be started.
  case cannotStart(String, Errno)

  var description: String {
    switch self {
    case .noGraphicalSession:
      "no graphical session (neither WAYLAND_DISPLAY nor DISPLAY is set), so the desktop popover cannot be shown"
    case .notInstalled(let searched):
      "cannot find translation-host-desktop, which shows the desktop popover (looked in \(searched.isEmpty ? "no installation of translation-host" : searched.joined(separator: ", "))); run 'make build' or 'make install' again, or pass --terminal"
    case .cannotStart(let path, let errno):
      "cannot start \(path), which shows the desktop popover: \(errno)"
    }
  }

  var hostError: HostError { HostError(.failure, description) }
}
