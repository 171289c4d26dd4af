import Glibc

// Processes: the one way to start one, signals to them, waiting for them;
// and this process itself (its id, environment, exit, sleep, clock).
extension Syscalls {
  /// What a spawned process gets as a descriptor.
  package enum SpawnAction: Sendable {
    /// Our descriptor `descriptor`, as its descriptor `target`.
    case duplicate(FileDescriptor, as: FileDescriptor)
    /// The file at `path`, opened with `flags` (and `mode` when created), as its descriptor `target`.
    case open(String, as: FileDescriptor, flags: Int32, mode: mode_t)

    /// `/dev/null` as `target`: read-only as standard input, write-only as anything else.
    package static func nullDevice(as target: FileDescriptor) -> SpawnAction {
      .open("/dev/null", as: target, flags: target == .standardInput ? O_RDONLY : O_WRONLY, mode: 0)
    }
  }

  /// Starts `path` with `arguments` and `environment`, its descriptors set up
  /// by `actions`: the one way the host, the runner and the providers start a
  /// program. It inherits the standard three (unless `actions` name them)
  /// and no descriptor that `actions` do not name, close-on-exec or not: a
  /// descriptor this process was itself given (a runner's protocol socket,
  /// whatever the host's parent left open) never reaches a program started
  /// from it, such as an Apertium stage. It starts with no blocked signals
  /// and default dispositions, whatever thread spawned it (Dispatch's threads block every signal), and,
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
    var targets: Set<Int32> = []
    for action in spawnActions {
      switch action {
      case .duplicate(let descriptor, let target):
        posix_spawn_file_actions_adddup2(&actions, descriptor.rawValue, target.rawValue)
        targets.insert(target.rawValue)
      case .open(let file, let target, let flags, let mode):
        posix_spawn_file_actions_addopen(&actions, target.rawValue, file, flags, mode)
        targets.insert(target.rawValue)
      }
    }
    // Last, so that a descriptor duplicated above is closed only after it
    // was: every descriptor from 3 up that no action named. (Closing one
    // that is not open is no error.)
    let highestTarget = max(targets.max() ?? 0, FileDescriptor.standardError.rawValue)
    for descriptor in stride(from: FileDescriptor.standardError.rawValue + 1, to: highestTarget, by: 1)
    where !targets.contains(descriptor) {
      posix_spawn_file_actions_addclose(&actions, descriptor)
    }
    if let addCloseFrom = Self.addCloseFrom {
      let added = addCloseFrom(&actions, highestTarget + 1)
      guard added == 0 else { throw Errno(rawValue: added) }
    } else {
      // glibc before 2.34: those open now, by name. (One another thread
      // opens meanwhile is close-on-exec, as every descriptor here is made.)
      for name in try Directory.names(at: "/proc/self/fd") {
        guard let descriptor = Int32(name), descriptor > highestTarget else { continue }
        posix_spawn_file_actions_addclose(&actions, descriptor)
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

  /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later),
  /// which Swift's Glibc module does not export (it needs `_GNU_SOURCE`).
  private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
  private nonisolated(unsafe) static let addCloseFrom: AddCloseFrom? = dlsym(
    UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np"
  ).map { unsafeBitCast($0, to: AddCloseFrom.self) }

  /// Replaces this process's program with `path` (`execv`): the same process
  /// id, environment, descriptors (but close-on-exec ones), signal mask and
  /// ignored signals, and the arguments this process was started with, byte
  /// for byte but the first, which becomes `path`. Returns only by throwing.
  package static func replaceProgram(with path: String) throws(Errno) -> Never {
    let program = strdup(path)
    defer { free(program) }
    var argv: [UnsafeMutablePointer<CChar>?] = [program]
    for index in stride(from: 1, to: Int(CommandLine.argc), by: 1) { argv.append(CommandLine.unsafeArgv[index]) }
    argv.append(nil)
    execv(path, argv)
    throw Errno.current
  }

  /// Sends `signal` to `pid` (to its process group when negative); a process
  /// that is already gone is not an error.
  package static func kill(_ pid: pid_t, _ signal: Signal) {
    _ = Glibc.kill(pid, signal.rawValue)
  }

  /// Waits for `pid` to end and returns its raw wait status (`ExitStatus` decodes it).
  package static func wait(_ pid: pid_t) throws(Errno) -> Int32 {
    var status: Int32 = 0
    try retrying { waitpid(pid, &status, 0) }
    return status
  }

  /// The wait status of the child `pid` once it ends, waiting up to `timeout`
  /// for it without polling: its process descriptor (`pidfd_open`) becomes
  /// readable when it ends. nil if it still runs at the deadline. Where the
  /// kernel or C library has no pidfd (Linux before 5.3, glibc before 2.36),
  /// it looks every 2 ms instead.
  package static func reap(_ pid: pid_t, waitingUpTo timeout: Duration) throws(Errno) -> Int32? {
    if let status = try reap(pid) { return status }
    let deadline = ContinuousClock.Instant.after(timeout)
    if let pidfdOpen, case let raw = pidfdOpen(pid, 0), raw >= 0 {
      let descriptor = FileDescriptor(rawValue: raw)
      defer { close(descriptor) }
      guard try waitReadable(descriptor, timeout: max(deadline - .now, .zero)) else { return nil }
      return try reap(pid)
    }
    while !deadline.hasPassed {
      sleep(for: .milliseconds(2))
      if let status = try reap(pid) { return status }
    }
    return nil
  }

  /// glibc's `pidfd_open` (2.36 and later), which Swift's Glibc module does
  /// not export (it is in `<sys/pidfd.h>`).
  private typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32
  private static let pidfdOpen: PidfdOpen? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open").map {
    unsafeBitCast($0, to: PidfdOpen.self)
  }

  /// The wait status of `pid` if it has ended, without blocking; nil while it runs.
  package static func reap(_ pid: pid_t) throws(Errno) -> Int32? {
    var status: Int32 = 0
    let result = try retrying { waitpid(pid, &status, WNOHANG) }
    return result == 0 ? nil : status
  }

  /// This process's id.
  package static var processID: pid_t { getpid() }

  /// Ends this process with `status`, running `atexit` handlers and flushing C streams.
  package static func exit(_ status: Int32) -> Never { Glibc.exit(status) }

  /// The value of the environment variable `name`, or nil when it is not set.
  package static func environmentVariable(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// Removes `name` from this process's environment, and so from what the
  /// programs it starts inherit.
  package static func unsetEnvironmentVariable(_ name: String) { unsetenv(name) }

  /// Sets `name` in this process's environment unless it is set already.
  package static func setEnvironmentVariableIfUnset(_ name: String, to value: String) { setenv(name, value, 0) }

  /// Sleeps for `span`, the whole time even when a signal interrupts it.
  package static func sleep(for span: Duration) {
    let (seconds, attoseconds) = max(span, .zero).components
    var request = timespec(tv_sec: Int(clamping: seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    _ = try? retrying {
      let result = nanosleep(&request, &remaining)
      request = remaining  // what is left, should a signal have cut it short
      return result
    }
  }

  /// Real path of the running executable.
  package static func executablePath() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
    guard length > 0 else { return nil }
    return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Monotonic time in nanoseconds.
  package static func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }

  /// The wall clock (`CLOCK_REALTIME`) in nanoseconds since the epoch, as
  /// files' times are: to tell how long ago a file changed.
  package static func wallClockNanoseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
  }
}
