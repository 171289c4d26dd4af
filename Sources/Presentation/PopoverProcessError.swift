import System

/// Why `PopoverProcess` has no outcome to give.
package enum PopoverProcessError: Error, Equatable, HostErrorConvertible {
  /// `translation-host-desktop` could not be started.
  case cannotStart(String, Errno)
  /// `run` wrote a replacement larger than `limit` bytes; the popover was closed.
  case replacementTooLarge(limit: Int)

  package var description: String {
    switch self {
    case .cannotStart(let executable, let error): "\(executable) could not be started: \(error)"
    case .replacementTooLarge(let limit):
      "the translation popover's replacement is larger than \(limit >> 20) MiB; it was not used (translate a shorter text)"
    }
  }

  package var hostError: HostError { HostError(.failure, description) }
}
