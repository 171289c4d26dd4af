import Glibc
import Synchronization

/// The raw calls behind the resident service's Unix socket: listening,
/// connecting, accepting and asking the kernel who is on the other end.
/// Like `Syscalls`, every function takes `FileDescriptor`s and throws
/// `Errno` instead of returning -1.
package enum UnixSocket {
  /// Who the kernel says opened a connection (`SO_PEERCRED`), fixed when the
  /// peer called `connect`, so it cannot be forged by passing the descriptor on.
  package struct PeerCredentials: Equatable, Sendable {
    package var pid: Int32
    package var uid: UInt32
    package var gid: UInt32
  }

  /// Numbers the names `listen` binds under before a socket appears at its path.
  private static let stagingNames = Atomic<Int>(0)

  /// The longest path a socket address holds (`sun_path` less its NUL).
  package static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

  /// A close-on-exec stream socket bound to `path` and listening. The file
  /// is created with mode 0600 (or less, by the umask), and appears at
  /// `path` only once the socket listens: it is bound under a name of its own
  /// beside `path`, then linked to `path` (which, as `bind` would, fails
  /// with `EADDRINUSE` when `path` exists). So a client that waits for the
  /// path to appear (`FileWatch`) never finds it refusing connections.
  ///
  /// Linux gives the socket's file the mode of the socket itself, less the
  /// umask: the socket is made 0600 first. Narrowing the umask around
  /// `bind` instead would narrow it for every thread of the process, and a
  /// file another thread creates meanwhile (a program a test compiles, a
  /// folder) would lose its execute and group bits.
  package static func listen(at path: String, backlog: Int32 = 128) throws(Errno) -> FileDescriptor {
    let fd = try makeSocket()
    // Named by process and call, so no other listener uses it; one a dead
    // process left is removed. Where it does not fit in a socket address,
    // `path` is bound directly.
    let staging = path + ".\(getpid()).\(stagingNames.add(1, ordering: .relaxed).newValue).new"
    let bound = staging.utf8.count <= maximumPathLength ? staging : path
    do throws(Errno) {
      try Syscalls.retrying { fchmod(fd.rawValue, 0o600) }
      if bound != path { unlink(bound) }
      try withAddress(bound) { address, length throws(Errno) in try Syscalls.retrying { bind(fd.rawValue, address, length) } }
      defer { if bound != path { unlink(bound) } }
      try Syscalls.retrying { Glibc.listen(fd.rawValue, backlog) }
      if bound != path {
        do throws(Errno) { try Syscalls.retrying { link(bound, path) } } catch {
          throw error == .fileExists ? Errno(rawValue: EADDRINUSE) : error
        }
      }
      return fd
    } catch {
      Syscalls.close(fd)
      throw error
    }
  }

  /// A close-on-exec stream socket connected to `path`.
  package static func connect(to path: String) throws(Errno) -> FileDescriptor {
    let fd = try makeSocket()
    do throws(Errno) {
      try withAddress(path) { address, length throws(Errno) in
        try Syscalls.retrying { Glibc.connect(fd.rawValue, address, length) }
      }
      return fd
    } catch {
      Syscalls.close(fd)
      throw error
    }
  }

  /// The next connection on the listening socket `fd`, close-on-exec.
  /// (Glibc's `accept4` is hidden behind `_GNU_SOURCE`; runners close every
  /// descriptor above 3 as they start, which covers the moment in between.)
  package static func accept(_ fd: FileDescriptor) throws(Errno) -> FileDescriptor {
    let connection = FileDescriptor(rawValue: try Syscalls.retrying { Glibc.accept(fd.rawValue, nil, nil) })
    do { try Syscalls.setCloseOnExec(connection) } catch {
      Syscalls.close(connection)
      throw error
    }
    return connection
  }

  /// The credentials of the process at the other end of `fd`.
  package static func peerCredentials(_ fd: FileDescriptor) throws(Errno) -> PeerCredentials {
    // `struct ucred` (pid, uid, gid), which Glibc declares only under `_GNU_SOURCE`.
    var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
    var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
    try Syscalls.retrying { getsockopt(fd.rawValue, SOL_SOCKET, SO_PEERCRED, &credentials, &length) }
    guard length == MemoryLayout<(Int32, UInt32, UInt32)>.size else { throw .invalidArgument }
    return PeerCredentials(pid: credentials.0, uid: credentials.1, gid: credentials.2)
  }

  /// Whether `fd` is a listening Unix stream socket (what socket activation must hand over).
  package static func isListeningUnixSocket(_ fd: FileDescriptor) -> Bool {
    var value: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(fd.rawValue, SOL_SOCKET, SO_ACCEPTCONN, &value, &length) == 0, value == 1 else { return false }
    var domain: Int32 = 0
    length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(fd.rawValue, SOL_SOCKET, SO_DOMAIN, &domain, &length) == 0 else { return false }
    return domain == AF_UNIX
  }

  /// Reads what `fd` holds now, up to `buffer.count` bytes, without waiting
  /// (whether `fd` is non-blocking or not): `Errno.wouldBlock` when nothing
  /// is there, 0 when the peer closed its end.
  package static func receiveNow(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
    try Syscalls.retrying { recv(fd.rawValue, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT)) }
  }

  /// Reads what `fd` holds, up to `buffer.count` bytes, waiting for some to
  /// arrive if `fd` is blocking (a non-blocking one throws `Errno.wouldBlock`):
  /// 0 when the peer closed its end, or the socket was shut down.
  ///
  /// A thread waiting here is woken, to sleep again, each time the peer
  /// reads what this end sent (the socket's wait queue carries both
  /// directions' wake-ups), where `poll` for input is woken only by input:
  /// a connection that waits for its peer's next message between replies
  /// waits in `poll`.
  package static func receive(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
    try Syscalls.retrying { recv(fd.rawValue, buffer.baseAddress, buffer.count, 0) }
  }

  /// Reads and drops whatever `fd` holds now, without waiting.
  package static func discardPending(_ fd: FileDescriptor) {
    var scratch = [UInt8](repeating: 0, count: 4096)
    while scratch.withUnsafeMutableBytes({ buffer in (try? receiveNow(fd, into: buffer)) ?? 0 }) > 0 {}
  }

  /// Shuts down both directions of `fd`, waking any thread blocked on it.
  package static func shutdown(_ fd: FileDescriptor) { _ = Glibc.shutdown(fd.rawValue, Int32(SHUT_RDWR)) }

  /// Waits until one of `fds` is readable (or hung up) or `timeout` passes
  /// (nil: forever); returns which ones are.
  package static func waitReadable(_ fds: [FileDescriptor], timeout: Duration? = nil) throws(Errno) -> [Bool] {
    try Syscalls.poll(fds.map { ($0, .readable) }, timeout: timeout).map { !$0.isEmpty }
  }

  /// Removes the file at `path`; a missing one is not an error.
  package static func unlink(_ path: String) { _ = Glibc.unlink(path) }

  /// Creates the folder `path` with `mode` (an existing one is left alone).
  package static func makeFolder(_ path: String, mode: mode_t) throws(Errno) {
    do { try Syscalls.retrying { Glibc.mkdir(path, mode) } } catch {
      guard error == .fileExists else { throw error }
    }
  }

  private static func makeSocket() throws(Errno) -> FileDescriptor {
    FileDescriptor(
      rawValue: try Syscalls.retrying { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) })
  }

  /// `O_PATH` (Linux), which Glibc's module hides behind `_GNU_SOURCE`.
  private static let pathOnly: Int32 = 0o10_000_000

  @discardableResult
  private static func withAddress<T>(
    _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Errno) -> T
  ) throws(Errno) -> T {
    // A path longer than a socket address holds (a deep XDG_RUNTIME_DIR or
    // TMPDIR) is reached through its folder, opened as a path only: the
    // kernel resolves /proc/self/fd/<n>/<name> as <folder>/<name>.
    if path.utf8.count > maximumPathLength, !path.utf8.contains(0), let slash = path.lastIndex(of: "/"),
      path.index(after: slash) < path.endIndex
    {
      let folder = slash == path.startIndex ? "/" : String(path[..<slash])
      let name = String(path[path.index(after: slash)...])
      let directory = try Syscalls.retrying { open(folder, Self.pathOnly | O_DIRECTORY | O_CLOEXEC) }
      defer { _ = Glibc.close(directory) }
      let short = "/proc/self/fd/\(directory)/\(name)"
      guard short.utf8.count <= maximumPathLength else { throw .nameTooLong }
      return try withAddress(short, body)
    }
    let bytes = Array(path.utf8)
    guard !bytes.isEmpty, bytes.count <= maximumPathLength, !bytes.contains(0) else { throw .nameTooLong }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      for (index, byte) in bytes.enumerated() { buffer[index] = byte }
    }
    let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
    return try withUnsafePointer(to: &address) { pointer throws(Errno) in
      try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(Errno) in try body(address, length) }
    }
  }
}
