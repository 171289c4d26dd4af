import Glibc

/// What `Syscalls.poll` waits for on a descriptor, and what it found.
package struct PollEvents: OptionSet, Hashable, Sendable {
  package let rawValue: Int16

  package init(rawValue: Int16) { self.rawValue = rawValue }

  /// Data to read, or the end of the file (`POLLIN`).
  package static let readable = PollEvents(rawValue: Int16(POLLIN))
  /// Room to write (`POLLOUT`).
  package static let writable = PollEvents(rawValue: Int16(POLLOUT))
  /// Reported whether asked for or not: the peer hung up (`POLLHUP`), an
  /// error is pending (`POLLERR`), the descriptor is not open (`POLLNVAL`).
  package static let hungUp = PollEvents(rawValue: Int16(POLLHUP))
  package static let error = PollEvents(rawValue: Int16(POLLERR))
  package static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
}
