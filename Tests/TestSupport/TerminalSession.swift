import FoundationEssentials
import Glibc

/// A real terminal for end-to-end tests: a private tmux server (its own
/// socket in a temporary folder) whose one window runs a command, with
/// stdin and stdout redirected to files as in a pipeline, and stderr and
/// `/dev/tty` on the terminal.
///
/// The script around the command records its exit status, its pid, and
/// whether the terminal's mode (`stty -g`) was the same after it as before.
///
/// The session holds on to `resources` (a test's home, say) until its
/// command has ended, so that the command never outlives the folders it uses.
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
  private let resources: [Any]

  /// Starts `command` on a terminal of `columns` × `rows`; with
  /// `stdoutOnTerminal`, its stdout is the terminal too. `resources` are
  /// kept until the command has ended.
  package init(
    _ command: [String], environment: [String: String], stdin: String = "", rows: Int = 24, columns: Int = 80,
    stdoutOnTerminal: Bool = false, keeping resources: [Any] = []
  ) throws {
    self.resources = resources
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
      # Not a wait for anything: it keeps the window, and so the screen, after
      # the command has ended, for the test to read; deinit ends it.
      sleep 60
      """)
    try tmux("-f", "/dev/null", "new-session", "-d", "-x", String(columns), "-y", String(rows), "/bin/sh " + Self.quote(script))
    serverPID = pid_t(try tmux("display-message", "-p", "#{pid}").trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// Ends the terminal, and with it the command (SIGHUP), and waits until
  /// the command has ended before the folders go (`resources`, the session's own).
  deinit {
    _ = try? tmux("kill-server")
    if let serverPID { kill(serverPID, SIGKILL) }
    let pid = (try? String(contentsOfFile: directory.path + "/pid", encoding: .utf8))
      .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    if let pid, (try? eventually("the command (\(pid)) to end", timeout: .seconds(10)) { !Processes.isRunning(pid) }) == nil {
      kill(pid, SIGKILL)
      _ = try? eventually("the command (\(pid)) to end after SIGKILL", timeout: .seconds(10)) { !Processes.isRunning(pid) }
    }
  }

  /// Sends tmux key names (`Enter`, `Tab`, `BTab`, `Escape`, `C-c`, `Up`, …),
  /// in order, without waiting for what they do: wait for that on the screen.
  package func press(_ keys: String...) throws {
    for key in keys { try tmux("send-keys", "-t", "0", key) }
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
    try waitFor("'\(text)' on the screen", seconds: seconds) { $0.contains(text) }
  }

  /// Waits until the screen satisfies `condition` (`what` says what it
  /// shows then), and returns the screen.
  @discardableResult
  package func waitFor(_ what: String, seconds: Double = 15, until condition: (String) -> Bool) throws -> String {
    var last = ""
    do {
      return try eventually(what, timeout: .seconds(seconds), interval: .milliseconds(50)) {
        last = try screen()
        return condition(last) ? last : nil
      }
    } catch is WaitTimeout {
      throw Timeout(waitingFor: what, screen: last)
    }
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
    let read = { (name: String) in try? String(contentsOfFile: self.directory.path + "/" + name, encoding: .utf8) }
    do {
      // The script writes the status file last, and by a rename: once it is there, all is.
      let code = try eventually("the command to exit", timeout: .seconds(seconds), interval: .milliseconds(50)) {
        read("status").flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
      }
      return Outcome(exitCode: code, stdout: read("stdout") ?? "", terminalRestored: read("restored") != nil)
    } catch is WaitTimeout {
      throw Timeout(waitingFor: "the command to exit", screen: (try? screen()) ?? "")
    }
  }

  @discardableResult
  private func tmux(_ arguments: String...) throws -> String { try tmux(arguments) }

  @discardableResult
  private func tmux(_ arguments: [String]) throws -> String {
    let result = try Command.run(
      "/usr/bin/tmux", ["-S", socket] + arguments,
      environment: ["PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "LANG": "C.UTF-8"])
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
