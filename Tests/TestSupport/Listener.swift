import Foundation
import Glibc

/// A TCP listener on 127.0.0.1 with a kernel-chosen port.
package final class Listener {
  package let fd: Int32
  package let port: UInt16

  package init() throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    self.fd = fd
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    port = UInt16(bigEndian: address.sin_port)
  }

  deinit { close(fd) }

  /// Whether a connection is waiting to be accepted within `milliseconds`.
  /// A refusal needs only the short default; a connection that a provider's
  /// network relay (passt) makes on its behalf may come later on a loaded
  /// machine, after the provider has already seen its own connect succeed.
  package func acceptedConnection(withinMilliseconds milliseconds: Int32 = 100) -> Bool {
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, milliseconds) > 0
  }
}
