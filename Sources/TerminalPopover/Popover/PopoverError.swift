import System

/// Why the popover could not be shown or ended early.
package enum PopoverError: HostErrorConvertible, Equatable {
  /// No controlling terminal to draw on.
  case noTerminal(Errno)
  /// `TERM` names a terminal that cannot place the cursor (or none).
  case unsupportedTerminal(String)
  /// The person interrupted (Ctrl-C) or a signal asked the host to stop.
  case interrupted(signal: Signal)

  package var description: String {
    switch self {
    case .noTerminal(let error):
      "cannot open the terminal /dev/tty (\(error)), so the popover cannot be drawn"
    case .unsupportedTerminal(let term):
      term.isEmpty
        ? "TERM is not set, so the popover cannot be drawn (set TERM to your terminal's type)"
        : "the terminal type '\(term)' cannot place the cursor, so the popover cannot be drawn (set TERM to your terminal's type)"
    case .interrupted(let signal):
      "interrupted by \(signal == .interrupt ? "Ctrl-C" : signal.description)"
    }
  }

  package var hostError: HostError {
    if case .interrupted(let signal) = self { return HostError(.interrupted(signal: signal.rawValue), description) }
    return HostError(.failure, description)
  }
}
