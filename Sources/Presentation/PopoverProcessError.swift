import Glibc
import System

/// Why `PopoverProcess` has no outcome to give.
package enum PopoverProcessError: Error, Equatable, HostErrorConvertible {
  /// `translation-host-desktop` could not be started.
  case cannotStart(String, Errno)
  /// `run` wrote a replacement larger than `limit` bytes; the popover was closed.
  case replacementTooLarge(limit: Int)
  /// Its replacement could not be read; the popover was closed.
  case cannotRead(Errno)
  /// It could not be waited for (`ECHILD`: the process ignores `SIGCHLD`, so the kernel reaped it).
  case cannotWait(Errno)

  package var description: String {
    switch self {
    case .cannotStart(let executable, let error): "\(executable) could not be started: \(error)"
    case .replacementTooLarge(let limit):
      "the translation popover's replacement is larger than \(limit >> 20) MiB; it was not used (translate a shorter text)"
    case .cannotRead(let error): "the translation popover's replacement could not be read: \(error); it was closed"
    case .cannotWait(let error):
      "the translation popover's outcome is unknown: its process could not be waited for (\(error))"
        + (error == Errno(rawValue: ECHILD) ? "; do not set SIGCHLD to SIG_IGN while it is open" : "")
    }
  }

  package var hostError: HostError { HostError(.failure, description) }
}
