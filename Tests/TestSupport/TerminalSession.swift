import FoundationEssentials
import Glibc

/// A real terminal for end-to-end tests: a private tmux server (its own
/// socket in a temporary folder) whose one window runs a command, with
/// stdin and stdout redirected to files as in a pipeline, and stderr and
/// `/dev/tty` on the terminal.
///
/// The script around the command records its exit status, its pid, and
/// whether the terminal's mode (`stty -g`) was the same after it as before.
package final class TerminalSession {
  package struct Outcome: Sendable {
    package var exitCode: Int32
    package var stdout: String
    /// Whether the terminal's mode was restored.
    package var terminalRestored: Bool
  }

  private let directory: TemporaryDirectory
  private let socket: String
  private var serverPID: pid_t?

  /// Starts `command` on a terminal of `columns` × `rows`; with
  /// `stdoutOnTerminal`, its stdout is the terminal too.
  package init(
    _ command: [String], environment: [String: String], stdin: String = "", rows: Int = 24, columns: Int = 80,
    stdoutOnTerminal: Bool = false
  ) throws {
    directory = try TemporaryDirectory()
    socket = directory.path + "/tmux.socket"
    let input = try directory.write("stdin", stdin)
    let quoted = command.map(Self.quote).joined(separator: " ")
    let exports = environment.sorted { $0.key < $1.key }.map { "export \($0.key)=\(Self.quote($0.value))" }
    let script = try directory.write(
      "run.sh",
      """
      \(exports.joined(separator: "\n"))
      before=$(stty -g < /dev/tty)
      \(quoted) < \(Self.quote(input)) \(stdoutOnTerminal ? "" : "> " + Self.quote(directory.path + "/stdout")) &
      echo $! > \(Self.quote(directory.path + "/pid"))
      wait $!
      status=$?
      [ "$before" = "$(stty -g < /dev/tty)" ] && echo yes > \(Self.quote(directory.path + "/restored"))
      echo $status > \(Self.quote(directory.path + "/status.tmp"))
      mv \(Self.quote(directory.path + "/status.tmp")) \(Self.quote(directory.path + "/status"))
      sleep 60
      """)
    try tmux("-f", "/dev/null", "new-session", "-d", "-x", String(columns), "-y", String(rows), "/bin/sh " + Self.quote(script))
    serverPID = pid_t(try tmux("display-message", "-p", "#{pid}").trimmingCharacters(in: .whitespacesAndNewlines))
  }

  deinit {
    _ = try? tmux("kill-server")
    if let serverPID { kill(serverPID, SIGKILL) }
  }

  /// Sends tmux key names (`Enter`, `Tab`, `BTab`, `Escape`, `C-c`, `Up`, …).
  package func press(_ keys: String...) throws {
    for key in keys {
      try tmux("send-keys", "-t", "0", key)
      usleep(50_000)
    }
  }

  /// Types `text` literally.
  package func type(_ text: String) throws {
    try tmux("send-keys", "-t", "0", "-l", text)
  }

  /// The screen as text; with `styles`, with the escape sequences of its attributes.
  package func screen(styles: Bool = false) throws -> String {
    try tmux(["capture-pane", "-p", "-t", "0"] + (styles ? ["-e"] : []))
  }

  /// Waits until the screen shows `text`, and returns the screen.
  @discardableResult
  package func waitFor(_ text: String, seconds: Double = 15) throws -> String {
    let deadline = Date().addingTimeInterval(seconds)
    var last = ""
    while Date() < deadline {
      last = try screen()
      if last.contains(text) { return last }
      usleep(50_000)
    }
    throw Timeout(waitingFor: "'\(text)' on the screen", screen: last)
  }

  /// Resizes the terminal.
  package func resize(rows: Int, columns: Int) throws {
    try tmux("resize-window", "-t", "0", "-x", String(columns), "-y", String(rows))
  }

  /// Sends `signal` to the command.
  package func signal(_ signal: Int32) throws {
    let pid = try String(contentsOfFile: directory.path + "/pid", encoding: .utf8)
    kill(pid_t(pid.trimmingCharacters(in: .whitespacesAndNewlines))!, signal)
  }

  /// Waits for the command to end.
  package func waitForExit(seconds: Double = 15) throws -> Outcome {
    let deadline = Date().addingTimeInterval(seconds)
    let read = { (name: String) in try? String(contentsOfFile: self.directory.path + "/" + name, encoding: .utf8) }
    while Date() < deadline {
      if let status = read("status"), let code = Int32(status.trimmingCharacters(in: .whitespacesAndNewlines)) {
        return Outcome(exitCode: code, stdout: read("stdout") ?? "", terminalRestored: read("restored") != nil)
      }
      usleep(50_000)
    }
    throw Timeout(waitingFor: "the command to exit", screen: (try? screen()) ?? "")
  }

  @discardableResult
  private func tmux(_ arguments: String...) throws -> String { try tmux(arguments) }

  @discardableResult
  private func tmux(_ arguments: [String]) throws -> String {
    let result = try Command.run("/usr/bin/tmux", ["-S", socket] + arguments, environment: ["PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "LANG": "C.UTF-8"])
    guard result.exitCode == 0 else { throw TmuxFailed(arguments: arguments, stderr: result.stderr) }
    return result.stdout
  }

  private static func quote(_ text: String) -> String { "'" + text.replacing("'", with: "'\\''") + "'" }

  package struct Timeout: Error, CustomStringConvertible {
    package var waitingFor: String
    package var screen: String
    package var description: String { "timed out waiting for \(waitingFor); the screen shows:\n\(screen)" }
  }

  package struct TmuxFailed: Error, CustomStringConvertible {
    package var arguments: [String]
    package var stderr: String
    package var description: String { "tmux \(arguments.joined(separator: " ")) failed: \(stderr)" }
  }
}
