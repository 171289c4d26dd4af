import Glibc

/// An open file descriptor of this process, typed so that it is not taken
/// for a count, a process id or a signal. It owns nothing: whoever opened it
/// closes it (`Syscalls.close`), and every API that hands one over says who.
package struct FileDescriptor: RawRepresentable, Hashable, Sendable {
  package let rawValue: Int32

  package init(rawValue: Int32) { self.rawValue = rawValue }

  package static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
  package static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
  package static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

  /// How a file is opened (`Syscalls.open`).
  package enum AccessMode: Sendable {
    case readOnly, writeOnly, readWrite

    var flags: Int32 {
      switch self {
      case .readOnly: O_RDONLY
      case .writeOnly: O_WRONLY
      case .readWrite: O_RDWR
      }
    }
  }
}
