import Glibc

/// The raw system calls the host and runner use; the only file besides the
/// loader that touches Glibc directly. Every function throws `Errno` instead
/// of returning -1, and retries `EINTR`.
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

  /// A connected pair of Unix stream sockets, both close-on-exec.
  package static func socketPair() throws(Errno) -> (Int32, Int32) {
    var fds: [Int32] = [-1, -1]
    try retrying { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) }
    return (fds[0], fds[1])
  }

  package static func close(_ fd: Int32) {
    _ = Glibc.close(fd)
  }

  /// Writes all of `bytes`.
  package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
    var offset = 0
    while offset < bytes.count {
      let base = bytes.baseAddress! + offset
      let count = bytes.count - offset
      let written = try retrying { send(fd, base, count, Int32(MSG_NOSIGNAL)) }
      offset += written
    }
  }

  /// Reads up to `count` bytes into `buffer`; 0 means end of file.
  package static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) throws(Errno) -> Int {
    try retrying { Glibc.read(fd, buffer, count) }
  }

  /// Waits until `fd` is readable or `milliseconds` pass (-1: forever).
  /// Returns false on timeout.
  package static func waitReadable(_ fd: Int32, milliseconds: Int32) throws(Errno) -> Bool {
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return try retrying { Glibc.poll(&descriptor, 1, milliseconds) } > 0
  }

  /// What a spawned process gets as a descriptor.
  package enum SpawnAction: Sendable {
    /// Our descriptor `descriptor`, as its descriptor `target`.
    case duplicate(Int32, as: Int32)
    /// The file at `path`, opened with `flags` (and `mode` when created), as its descriptor `target`.
    case open(String, as: Int32, flags: Int32, mode: mode_t)
  }

  /// Starts `path` with `arguments` and `environment`, its descriptors set up
  /// by `actions` (descriptors not named there and close-on-exec are not
  /// inherited). It starts with no blocked signals and default dispositions,
  /// whatever thread spawned it (Dispatch's threads block every signal), and,
  /// with `newSession`, in a session and process group of its own without a
  /// controlling terminal, so that everything it starts can be killed
  /// together and none of it can reach the user's terminal.
  package static func spawn(
    _ path: String, arguments: [String], environment: [String], actions spawnActions: [SpawnAction],
    newSession: Bool
  ) throws(Errno) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for action in spawnActions {
      switch action {
      case .duplicate(let descriptor, let target): posix_spawn_file_actions_adddup2(&actions, descriptor, target)
      case .open(let file, let target, let flags, let mode): posix_spawn_file_actions_addopen(&actions, target, file, flags, mode)
      }
    }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var signals = sigset_t()
    sigemptyset(&signals)
    posix_spawnattr_setsigmask(&attributes, &signals)
    sigfillset(&signals)
    posix_spawnattr_setsigdefault(&attributes, &signals)
    // glibc's POSIX_SPAWN_SETSID, which Swift's Glibc module does not export (it needs _GNU_SOURCE).
    let sessionFlag: Int32 = newSession ? 0x80 : 0
    posix_spawnattr_setflags(&attributes, Int16(sessionFlag | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    var pid: pid_t = 0
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    guard result == 0 else { throw Errno(rawValue: result) }
    return pid
  }

  /// The descriptors of a runner: the protocol socket as 3, `/dev/null` as
  /// stdin, and `output` as stdout and stderr, so nothing it prints can reach
  /// the host's stdout.
  package static func runnerActions(protocol socket: Int32, output: Int32) -> [SpawnAction] {
    [
      .duplicate(socket, as: 3), .duplicate(output, as: STDOUT_FILENO), .duplicate(output, as: STDERR_FILENO),
      .open("/dev/null", as: STDIN_FILENO, flags: O_RDONLY, mode: 0),
    ]
  }

  /// Sends `signal` to `pid`; a process that is already gone is not an error.
  package static func kill(_ pid: pid_t, _ signal: Int32) {
    _ = Glibc.kill(pid, signal)
  }

  /// Waits for `pid` to end and returns its raw wait status.
  package static func wait(_ pid: pid_t) throws(Errno) -> Int32 {
    var status: Int32 = 0
    try retrying { waitpid(pid, &status, 0) }
    return status
  }

  /// The wait status of `pid` if it has ended, without blocking.
  package static func reap(_ pid: pid_t) throws(Errno) -> Int32? {
    var status: Int32 = 0
    let result = try retrying { waitpid(pid, &status, WNOHANG) }
    return result == 0 ? nil : status
  }

  /// Real path of the running executable.
  package static func executablePath() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
    guard length > 0 else { return nil }
    return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Whether `fd` is a terminal.
  package static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

  /// Monotonic time in nanoseconds.
  package static func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }
}
