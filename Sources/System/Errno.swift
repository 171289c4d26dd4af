import Glibc

/// A failed system call's `errno`, with its readable text.
package struct Errno: Error, Equatable, Hashable, CustomStringConvertible {
  package let rawValue: Int32

  package init(rawValue: Int32) { self.rawValue = rawValue }

  /// The calling thread's current `errno`.
  package static var current: Errno { Errno(rawValue: errno) }

  package static let interrupted = Errno(rawValue: EINTR)
  package static let wouldBlock = Errno(rawValue: EAGAIN)
  package static let noSuchProcess = Errno(rawValue: ESRCH)
  package static let brokenPipe = Errno(rawValue: EPIPE)
  package static let connectionReset = Errno(rawValue: ECONNRESET)
  package static let notASocket = Errno(rawValue: ENOTSOCK)
  package static let inProgress = Errno(rawValue: EINPROGRESS)
  package static let fileExists = Errno(rawValue: EEXIST)
  package static let invalidArgument = Errno(rawValue: EINVAL)
  package static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
  package static let notATerminal = Errno(rawValue: ENOTTY)

  package var description: String { String(cString: strerror(rawValue)) }
}
