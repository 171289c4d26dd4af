import Glibc

/// TCP client connections: a host name resolved, and each of its addresses
/// tried in turn within a time limit.
package enum TCPSocket {
  /// Why no connection was made.
  package enum ConnectError: Error, Equatable, CustomStringConvertible {
    /// The host name could not be resolved; the resolver's text.
    case unresolved(String)
    /// Every address failed; the last one's error.
    case failed(Errno)
    /// An address did not answer within the time given.
    case timedOut

    package var description: String {
      switch self {
      case .unresolved(let reason): reason
      case .failed(let error): error.description
      case .timedOut: "timed out"
      }
    }
  }

  /// A close-on-exec, blocking stream socket connected to `host` (a name or
  /// an address) on `port` (a number or a service name). An address that
  /// does not answer within `timeout` ends the attempt.
  package static func connect(host: String, port: String, timeout: Duration) throws(ConnectError) -> FileDescriptor {
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var addresses: UnsafeMutablePointer<addrinfo>?
    let resolved = getaddrinfo(host, port, &hints, &addresses)
    guard resolved == 0, let first = addresses else {
      throw .unresolved(String(cString: gai_strerror(resolved)))
    }
    defer { freeaddrinfo(addresses) }
    var lastError = Errno(rawValue: EHOSTUNREACH)
    var next: UnsafeMutablePointer<addrinfo>? = first
    while let address = next {
      next = address.pointee.ai_next
      let connected: FileDescriptor?
      do throws(Errno) { connected = try connect(to: address.pointee, timeout: timeout) } catch {
        lastError = error
        continue
      }
      guard let connected else { throw .timedOut }
      return connected
    }
    throw .failed(lastError)
  }

  /// A socket connected to one resolved address; nil when it did not answer in time.
  private static func connect(to address: addrinfo, timeout: Duration) throws(Errno) -> FileDescriptor? {
    let fd = FileDescriptor(
      rawValue: try Syscalls.retrying { socket(address.ai_family, address.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0) })
    do throws(Errno) {
      // Non-blocking while connecting, so that the wait has a limit.
      try Syscalls.setNonBlocking(fd)
      if Glibc.connect(fd.rawValue, address.ai_addr, address.ai_addrlen) != 0 {
        let error = Errno.current
        guard error == .inProgress || error == .interrupted else { throw error }
        guard try Syscalls.waitWritable(fd, timeout: timeout) else {
          Syscalls.close(fd)
          return nil
        }
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        try Syscalls.retrying { getsockopt(fd.rawValue, SOL_SOCKET, SO_ERROR, &failure, &length) }
        guard failure == 0 else { throw Errno(rawValue: failure) }
      }
      try Syscalls.setNonBlocking(fd, false)
      return fd
    } catch {
      Syscalls.close(fd)
      throw error
    }
  }
}
