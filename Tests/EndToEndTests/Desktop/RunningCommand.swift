import FoundationEssentials
import Glibc
import System
import TestSupport

/// A command started in the background (a popover the test then answers
/// with keys), its stdout and stderr in files, waited for by pid.
final class RunningCommand {
  let pid: pid_t
  private let directory: TemporaryDirectory
  private var result: Command.Result?

  /// Starts `arguments[0]` with the rest, `environment` as its whole environment.
  init(_ arguments: [String], environment: [String: String], stdin: String? = nil) throws {
    directory = try TemporaryDirectory()
    let input = try directory.write("stdin", stdin ?? "")
    pid = try Syscalls.spawn(
      arguments[0], arguments: Array(arguments.dropFirst()), environment: environment.map { "\($0.key)=\($0.value)" },
      actions: [
        .open(stdin == nil ? "/dev/null" : input, as: .standardInput, flags: O_RDONLY, mode: 0),
        .open(directory.path + "/stdout", as: .standardOutput, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644),
        .open(directory.path + "/stderr", as: .standardError, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644),
      ], newSession: true)
  }

  deinit {
    if result == nil {
      kill(-pid, SIGKILL)
      var status: Int32 = 0
      while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }
  }

  /// Whether it has ended (reaping it if so).
  var hasEnded: Bool {
    if result != nil { return true }
    var status: Int32 = 0
    guard waitpid(pid, &status, WNOHANG) == pid else { return false }
    let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    result = Command.Result(exitCode: code, stdout: read("stdout"), stderr: read("stderr"))
    return true
  }

  /// Asks it to end (SIGTERM to its process group), and waits up to 10 s
  /// before SIGKILL: a server removes its lock files on SIGTERM.
  func stop() {
    guard !hasEnded else { return }
    kill(-pid, SIGTERM)
    if (try? waitForExit(timeout: .seconds(10))) == nil {
      kill(-pid, SIGKILL)
      _ = try? waitForExit(timeout: .seconds(10))
    }
  }

  /// A popover window's frame on the screen.
  typealias Frame = (x: Int, y: Int, width: Int, height: Int)

  /// Waits for this command's popover, titled `title`, to show its scene:
  /// its window shows a spinner alone (about 106 pixels high) until the
  /// scene comes, then it is taller, and the scene is drawn once the frame
  /// (`frame()`, nil while there is no window) has stayed the same for a second.
  func waitForScene(titled title: String, frame: () throws -> Frame?) throws -> Frame {
    var last: Frame = (0, 0, 0, 0)
    var stable = 0
    return try eventually("the scene of '\(title)' to be drawn", interval: .milliseconds(100), detail: { self.stderr }) {
      guard !hasEnded else { throw PopoverEnded(stderr: "exit status \(result?.exitCode ?? -1); " + stderr) }
      guard let now = try frame() else { return nil }
      stable = now == last ? stable + 1 : 0
      last = now
      return now.height > 120 && stable >= 10 ? now : nil
    }
  }

  struct PopoverEnded: Error, CustomStringConvertible {
    var stderr: String
    var description: String { "the popover ended before its scene was drawn: \(stderr)" }
  }

  /// What it wrote to stdout so far.
  var stdout: String { read("stdout") }

  /// What it wrote to stderr so far.
  var stderr: String { read("stderr") }

  /// Waits for it to end.
  func waitForExit(timeout: Duration = .seconds(60)) throws -> Command.Result {
    try eventually("\(pid) to exit", timeout: timeout, interval: .milliseconds(50), detail: { self.stderr }) { hasEnded }
    return result!
  }

  private func read(_ name: String) -> String {
    (try? String(contentsOfFile: directory.path + "/" + name, encoding: .utf8)) ?? ""
  }
}
