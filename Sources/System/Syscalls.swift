import Glibc

/// The raw system calls on descriptors that the host, the runner and the
/// shipped providers make (processes are in `Syscalls+Processes.swift`).
/// Descriptors go in and out as `FileDescriptor`s; a call that can fail
/// throws `Errno` instead of returning -1, and `retrying` is the one place
/// that turns -1 into an error and the one rule for `EINTR`.
package enum Syscalls {
  /// Runs `call` until it does not fail with `EINTR`; -1 becomes a thrown `Errno`.
  @discardableResult
  package static func retrying<T: FixedWidthInteger>(_ call: () -> T) throws(Errno) -> T {
    while true {
      let result = call()
      if result != -1 { return result }
      let error = Errno.current
      if error != .interrupted { throw error }
    }
  }

  // MARK: Opening and closing

  /// Opens `path`. Close-on-exec unless `closeOnExec` is false (a descriptor
  /// meant for the programs this process starts, such as 0–2); a terminal
  /// opened here never becomes the process's controlling terminal.
  package static func open(_ path: String, _ access: FileDescriptor.AccessMode, closeOnExec: Bool = true) throws(Errno)
    -> FileDescriptor
  {
    let flags = access.flags | O_NOCTTY | (closeOnExec ? O_CLOEXEC : 0)
    return FileDescriptor(rawValue: try retrying { Glibc.open(path, flags) })
  }

  /// Closes `fd`. Never retried: on Linux the descriptor is gone even when
  /// `close` reports an error, and a retry could close someone else's.
  package static func close(_ fd: FileDescriptor) {
    _ = Glibc.close(fd.rawValue)
  }

  /// Whether `fd` is open.
  package static func isOpen(_ fd: FileDescriptor) -> Bool { fcntl(fd.rawValue, F_GETFD) != -1 }

  /// Points `fd` (0–2, say) at `/dev/null`: what is read there is empty, what is written goes nowhere.
  package static func redirectToNullDevice(_ fd: FileDescriptor) throws(Errno) {
    let null = try open("/dev/null", .readWrite)
    defer { close(null) }
    try retrying { dup2(null.rawValue, fd.rawValue) }
  }

  /// A connected pair of Unix stream sockets, both close-on-exec from birth,
  /// so that a process started at the same moment on another thread cannot
  /// inherit them (which a pipe, marked afterwards, would allow).
  package static func socketPair() throws(Errno) -> (FileDescriptor, FileDescriptor) {
    var fds: [Int32] = [-1, -1]
    try retrying { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) }
    return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
  }

  /// Marks `fd` close-on-exec, so that the programs this process starts do not inherit it.
  package static func setCloseOnExec(_ fd: FileDescriptor) throws(Errno) {
    let flags = try retrying { fcntl(fd.rawValue, F_GETFD) }
    try retrying { fcntl(fd.rawValue, F_SETFD, flags | FD_CLOEXEC) }
  }

  /// Makes reads and writes on `fd` fail with `Errno.wouldBlock` instead of waiting, or wait again.
  package static func setNonBlocking(_ fd: FileDescriptor, _ nonBlocking: Bool = true) throws(Errno) {
    let flags = try retrying { fcntl(fd.rawValue, F_GETFL) }
    try retrying { fcntl(fd.rawValue, F_SETFL, nonBlocking ? flags | O_NONBLOCK : flags & ~O_NONBLOCK) }
  }

  /// Whether `fd` is a terminal.
  package static func isTerminal(_ fd: FileDescriptor) -> Bool { isatty(fd.rawValue) == 1 }

  // MARK: Reading

  /// Reads up to `buffer.count` bytes into `buffer`; 0 means end of file.
  package static func read(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
    guard let base = buffer.baseAddress else { return 0 }
    return try retrying { Glibc.read(fd.rawValue, base, buffer.count) }
  }

  /// Reads up to `chunk.count` bytes into `chunk`, from its start; 0 means end of file.
  package static func read(_ fd: FileDescriptor, into chunk: inout [UInt8]) throws(Errno) -> Int {
    try chunk.withUnsafeMutableBytes { buffer in Result { () throws(Errno) in try read(fd, into: buffer) } }.get()
  }

  /// Reads until the end of the file, waiting when `fd` is non-blocking and
  /// empty. Stops early once more than `limit` bytes came, so a caller can
  /// refuse too much input without holding all of it.
  package static func readAll(_ fd: FileDescriptor, limit: Int = .max) throws(Errno) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while bytes.count <= limit {
      let count: Int
      do { count = try read(fd, into: &chunk) } catch {
        guard error == .wouldBlock else { throw error }
        _ = try waitReadable(fd)
        continue
      }
      guard count > 0 else { break }
      bytes += chunk[0..<count]
    }
    return bytes
  }

  // MARK: Writing

  /// Writes what `fd` takes of `bytes` at once and returns how much; a
  /// non-blocking descriptor that is full throws `Errno.wouldBlock`. On a
  /// socket whose peer is gone it throws `Errno.brokenPipe` rather than
  /// raising SIGPIPE, which would end a process (an app using the client
  /// library) that has not chosen to ignore it.
  package static func write(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
    do {
      return try retrying { send(fd.rawValue, base, bytes.count, Int32(MSG_NOSIGNAL)) }
    } catch {
      guard error == .notASocket else { throw error }
      return try retrying { Glibc.write(fd.rawValue, base, bytes.count) }
    }
  }

  /// Writes all of `bytes`: the one write loop. It waits when `fd` is
  /// non-blocking and full, and like `write` never raises SIGPIPE on a socket.
  package static func writeAll(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
    var offset = 0
    while offset < bytes.count {
      do {
        offset += try write(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
      } catch {
        guard error == .wouldBlock else { throw error }
        _ = try waitWritable(fd)
      }
    }
  }

  /// Writes all of `bytes` (see the buffer form).
  package static func writeAll(_ fd: FileDescriptor, _ bytes: [UInt8]) throws(Errno) {
    try bytes.withUnsafeBytes { buffer in Result { () throws(Errno) in try writeAll(fd, buffer) } }.get()
  }

  /// Writes all of `text`, as UTF-8 (see the buffer form).
  package static func writeAll(_ fd: FileDescriptor, _ text: String) throws(Errno) {
    var text = text
    try text.withUTF8 { bytes in Result { () throws(Errno) in try writeAll(fd, UnsafeRawBufferPointer(bytes)) } }.get()
  }

  // MARK: Waiting

  /// Waits until one of the descriptors has one of the events asked for it
  /// (hang-ups and errors are reported unasked), or `timeout` passes (nil:
  /// forever; zero: only looks). Returns what each one has, in order; all
  /// empty on timeout.
  package static func poll(
    _ requests: [(FileDescriptor, PollEvents)], timeout: Duration? = nil
  ) throws(Errno) -> [PollEvents] {
    var descriptors = requests.map { pollfd(fd: $0.0.rawValue, events: $0.1.rawValue, revents: 0) }
    let milliseconds = timeout?.pollMilliseconds ?? -1
    try retrying { Glibc.poll(&descriptors, nfds_t(descriptors.count), milliseconds) }
    return descriptors.map { PollEvents(rawValue: $0.revents) }
  }

  /// Waits until `fd` is readable (or hung up) or `timeout` passes (nil:
  /// forever). Returns false on timeout. One descriptor on the stack: the
  /// wait on every runner's reply, with no array made for it.
  package static func waitReadable(_ fd: FileDescriptor, timeout: Duration? = nil) throws(Errno) -> Bool {
    var descriptor = pollfd(fd: fd.rawValue, events: PollEvents.readable.rawValue, revents: 0)
    let milliseconds = timeout?.pollMilliseconds ?? -1
    try retrying { Glibc.poll(&descriptor, 1, milliseconds) }
    return descriptor.revents != 0
  }

  /// Waits until `first` or `second` is readable (or hung up) or `timeout`
  /// passes (nil: forever); returns which are. On the stack, as the one-descriptor form.
  package static func waitReadable(
    _ first: FileDescriptor, _ second: FileDescriptor, timeout: Duration? = nil
  ) throws(Errno) -> (Bool, Bool) {
    let milliseconds = timeout?.pollMilliseconds ?? -1
    let readable = PollEvents.readable.rawValue
    return try withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2) { descriptors in
      descriptors[0] = pollfd(fd: first.rawValue, events: readable, revents: 0)
      descriptors[1] = pollfd(fd: second.rawValue, events: readable, revents: 0)
      return Result { () throws(Errno) in
        try retrying { Glibc.poll(descriptors.baseAddress, 2, milliseconds) }
        return (descriptors[0].revents != 0, descriptors[1].revents != 0)
      }
    }.get()
  }

  /// Waits until one of `count` descriptors (`descriptor(0)` …, at most 64)
  /// is readable (or hung up) or `timeout` passes (nil: forever); returns
  /// which are, as bits (bit `i`: `descriptor(i)`). On the stack, no array.
  /// After any wake-up the kernel looks at them in this order, so a
  /// descriptor found not readable had nothing to read once the ones before
  /// it that were found readable had become so.
  package static func waitReadable(
    count: Int, timeout: Duration? = nil, _ descriptor: (Int) -> FileDescriptor
  ) throws(Errno) -> UInt64 {
    precondition(count > 0 && count <= 64)
    let milliseconds = timeout?.pollMilliseconds ?? -1
    let readable = PollEvents.readable.rawValue
    return try withUnsafeTemporaryAllocation(of: pollfd.self, capacity: count) { descriptors in
      for index in 0..<count { descriptors[index] = pollfd(fd: descriptor(index).rawValue, events: readable, revents: 0) }
      return Result { () throws(Errno) in
        try retrying { Glibc.poll(descriptors.baseAddress, nfds_t(count), milliseconds) }
        var bits: UInt64 = 0
        for index in 0..<count where descriptors[index].revents != 0 { bits |= 1 << UInt64(index) }
        return bits
      }
    }.get()
  }

  /// Waits until `fd` can take more (or failed) or `timeout` passes (nil:
  /// forever). Returns false on timeout.
  package static func waitWritable(_ fd: FileDescriptor, timeout: Duration? = nil) throws(Errno) -> Bool {
    try !poll([(fd, .writable)], timeout: timeout)[0].isEmpty
  }

  // MARK: Paths

  /// Renames `source` to `target`, replacing what is there, in one step.
  package static func rename(_ source: String, to target: String) throws(Errno) {
    try retrying { Glibc.rename(source, target) }
  }

  /// Sets the permission bits of `path` (which `open` and `mkdir` filter through the umask).
  package static func setPermissions(_ path: String, _ mode: mode_t) throws(Errno) {
    try retrying { chmod(path, mode) }
  }

  /// How many names (hard links) the file at `path` has, not following a
  /// final symbolic link; nil when it cannot be read.
  package static func linkCount(_ path: String) -> Int? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return Int(info.st_nlink)
  }

  /// The path with symbolic links, `.` and `..` resolved; nil when it does not exist.
  package static func realPath(_ path: String) -> String? {
    guard let resolved = Glibc.realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
