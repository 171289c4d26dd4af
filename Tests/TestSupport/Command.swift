import FoundationEssentials
import Glibc
import System

/// Runs a program to completion, feeding stdin and collecting stdout and stderr.
package enum Command {
  package struct Result: Sendable {
    package var exitCode: Int32
    package var stdout: String
    package var stderr: String

    package init(exitCode: Int32, stdout: String, stderr: String) {
      self.exitCode = exitCode
      self.stdout = stdout
      self.stderr = stderr
    }
  }

  /// Runs `path` with `arguments`; `environment` replaces the process's own when given.
  package static func run(
    _ path: String, _ arguments: [String], environment: [String: String]? = nil, stdin: String? = nil
  ) throws -> Result {
    let directory = try TemporaryDirectory()
    let input = try directory.write("stdin", stdin ?? "")
    let out = directory.path + "/stdout"
    let err = directory.path + "/stderr"
    let pid: pid_t
    do {
      pid = try Syscalls.spawn(
        path, arguments: arguments,
        environment: (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" },
        actions: [
          .open(stdin == nil ? "/dev/null" : input, as: .standardInput, flags: O_RDONLY, mode: 0),
          .open(out, as: .standardOutput, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644),
          .open(err, as: .standardError, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644),
        ], newSession: false)
    } catch {
      throw SpawnError(path: path, code: error.rawValue)
    }
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
