import Glibc

/// A descriptor that another thread, or a signal handler, makes readable to
/// wake a loop that waits on it with its other descriptors (`poll`, a GLib
/// source): the reading end of a socket pair whose other end takes a byte
/// per wake. Wakes before the loop looks merge into one `drain`.
///
/// The popovers wait on it for a call that finished on another thread and
/// for the signals that end them, instead of waking on a timer to look.
package final class WakeDescriptor: @unchecked Sendable {
  /// The descriptor to wait on, readable while a wake is pending. The value owns it.
  package let descriptor: FileDescriptor
  /// The end a wake writes to.
  private let writer: FileDescriptor

  /// A new descriptor, not readable yet.
  /// - Throws: `Errno` when the process is out of descriptors.
  package init() throws(Errno) {
    let (reader, writer) = try Syscalls.socketPair()
    do {
      try Syscalls.setNonBlocking(reader)
      try Syscalls.setNonBlocking(writer)
    } catch {
      Syscalls.close(reader)
      Syscalls.close(writer)
      throw error
    }
    descriptor = reader
    self.writer = writer
  }

  deinit {
    Syscalls.close(descriptor)
    Syscalls.close(writer)
  }

  /// Makes the descriptor readable. Async-signal-safe, and safe from any thread.
  package func wake() { Self.wake(writer) }

  /// The descriptor a signal handler passes to `wake(_:)`, holding the raw descriptor rather than the object.
  package var wakingDescriptor: FileDescriptor { writer }

  /// Makes a `WakeDescriptor` readable through its `wakingDescriptor`. A
  /// full buffer means a wake is pending already. Async-signal-safe.
  package static func wake(_ wakingDescriptor: FileDescriptor) {
    var byte: UInt8 = 1
    _ = Glibc.send(wakingDescriptor.rawValue, &byte, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
  }

  /// Takes the pending wakes, so the descriptor is not readable until the next one.
  package func drain() {
    var scratch = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
    while withUnsafeMutableBytes(of: &scratch, { Glibc.recv(descriptor.rawValue, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) })
      > 0
    {}
  }
}
