import FoundationEssentials
import Glibc

/// Runs a program to completion, feeding stdin and collecting stdout and stderr.
package enum Command {
  package struct Result: Sendable {
    package var exitCode: Int32
    package var stdout: String
    package var stderr: String
  }

  /// Runs `path` with `arguments`; `environment` replaces the process's own when given.
  package static func run(
    _ path: String, _ arguments: [String], environment: [String: String]? = nil, stdin: String? = nil
  ) throws -> Result {
    let directory = try TemporaryDirectory()
    let input = try directory.write("stdin", stdin ?? "")
    let out = directory.path + "/stdout"
    let err = directory.path + "/stderr"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin == nil ? "/dev/null" : input, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + env).forEach { free($0) } }
    // Test threads may block signals; the program must start with none blocked.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var signals = sigset_t()
    sigemptyset(&signals)
    posix_spawnattr_setsigmask(&attributes, &signals)
    sigfillset(&signals)
    posix_spawnattr_setsigdefault(&attributes, &signals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, env)
    guard spawned == 0 else { throw SpawnError(path: path, code: spawned) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let read = { (file: String) in (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }
    let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return Result(exitCode: code, stdout: read(out), stderr: read(err))
  }

  package struct SpawnError: Error {
    package var path: String
    package var code: Int32
  }
}
