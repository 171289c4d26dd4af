import Glibc
import System

/// A Unix stream socket that listens where a test says: at a path, or under
/// an abstract name (`@name`, no file), as a session bus or an agent would.
package final class UnixListener {
  package let fd: Int32
  /// The address: a path, or `@` and the abstract name.
  package let address: String

  package init(_ address: String) throws {
    self.address = address
    guard address.hasPrefix("@") else {
      fd = try UnixSocket.listen(at: address).rawValue
      return
    }
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var socketAddress = sockaddr_un()
    socketAddress.sun_family = sa_family_t(AF_UNIX)
    let name = Array(address.utf8.dropFirst())
    withUnsafeMutableBytes(of: &socketAddress.sun_path) { path in
      path[0] = 0
      for (index, byte) in name.prefix(path.count - 1).enumerated() { path[index + 1] = byte }
    }
    let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + name.count)
    let bound = withUnsafePointer(to: &socketAddress) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 8) == 0 }
    }
    guard bound else {
      close(fd)
      throw Errno.current
    }
  }

  deinit {
    close(fd)
    if !address.hasPrefix("@") { unlink(address) }
  }

  /// Whether a connection is waiting to be accepted.
  package func acceptedConnection() -> Bool {
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, 100) > 0
  }
}
