import Glibc

/// Starts the programs the Apertium providers need (the pipeline, apt-cache):
/// with no blocked signals and default dispositions, whatever thread starts
/// them (Dispatch's threads block every signal), and with the given
/// descriptors as stdin and stdout.
enum ChildProcess {
  /// The `errno` that stopped a program from starting.
  struct Failure: Error {
    let code: Int32
    var reason: String { String(cString: strerror(code)) }
  }

  /// Starts `path`; returns its process id.
  static func spawn(
    _ path: String, _ arguments: [String], environment: [String], stdin: Int32?, stdout: Int32
  ) throws(Failure) -> pid_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var signals = sigset_t()
    sigemptyset(&signals)
    posix_spawnattr_setsigmask(&attributes, &signals)
    sigfillset(&signals)
    posix_spawnattr_setsigdefault(&attributes, &signals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let stdin {
      posix_spawn_file_actions_adddup2(&actions, stdin, STDIN_FILENO)
    } else {
      posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
    }
    posix_spawn_file_actions_adddup2(&actions, stdout, STDOUT_FILENO)
    if stdin == nil { posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0) }

    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    guard result == 0 else { throw Failure(code: result) }
    return pid
  }
}
