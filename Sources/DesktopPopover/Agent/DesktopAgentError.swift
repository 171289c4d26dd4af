import System

/// Why the desktop agent could not start, or refused a request.
package enum DesktopAgentError: HostErrorConvertible, Equatable {
  /// GApplication could not register `org.translationhost.Desktop` on the session bus.
  case cannotRegister(String)
  /// A request's arguments include one the agent does not run; the reason.
  case refusedArguments(String, String)
  /// The agent is already showing a popover.
  case busy

  package var description: String {
    switch self {
    case .cannotRegister(let reason):
      "cannot register \(DesktopAgent.applicationID) on the session bus: \(reason) (is DBUS_SESSION_BUS_ADDRESS set, and the session bus running?)"
    case .refusedArguments(let argument, let reason):
      "the desktop agent refuses '\(argument)': \(reason)"
    case .busy:
      "the desktop agent is showing a popover already; finish or dismiss it first"
    }
  }

  package var hostError: HostError {
    switch self {
    case .cannotRegister, .busy: HostError(.failure, description)
    case .refusedArguments: HostError(.usage, description)
    }
  }
}
