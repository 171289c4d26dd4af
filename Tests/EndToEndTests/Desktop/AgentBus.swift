import FoundationEssentials
import Glibc
import TestSupport

/// A private session bus (`dbus-daemon`, stopped by pid) on which the
/// built desktop agent is bus-activatable through the activation file
/// `make install` installs, for the desktop agent's tests. What the bus
/// starts gets the bus's environment, as a session's bus has the display's
/// (`dbus-update-activation-environment`).
final class AgentBus {
  static let name = "org.translationhost.Desktop"

  let address: String
  private let folder: TemporaryDirectory
  private let daemon: RunningCommand

  init(environment: [String: String]) throws {
    folder = try TemporaryDirectory()
    let activation = try String(contentsOfFile: CFixture.packageRoot + "/Packaging/dbus/\(Self.name).service", encoding: .utf8)
      .replacingOccurrences(of: "@PREFIX@/libexec/translation-host/translation-host-desktop", with: Host.desktopExecutable)
    // The agent's stderr goes to a file of the test's (the bus gives what it starts none).
    let logged = activation.replacingOccurrences(
      of: "\nExec=", with: "\nExec=/bin/sh -c 'exec \"$0\" \"$@\" 2>>\(folder.path)/agent.log' ")
    try folder.write("services/\(Self.name).service", logged)
    try folder.write("session.conf", BusSession.configuration(in: folder.path))
    daemon = try RunningCommand(
      ["/usr/bin/dbus-daemon", "--config-file=\(folder.path)/session.conf", "--nofork", "--nopidfile", "--print-address=1"],
      environment: environment)
    let daemon = daemon
    address = try eventually("dbus-daemon to listen", timeout: .seconds(30), detail: { daemon.stderr }) {
      daemon.stdout.hasSuffix("\n") ? daemon.stdout.trimmingWhitespace() : nil
    }
  }

  deinit { daemon.stop() }

  /// What the bus and the agent it started wrote to stderr.
  var log: String { daemon.stderr + ((try? String(contentsOfFile: folder.path + "/agent.log", encoding: .utf8)) ?? "") }

  /// `base` with this bus as the session bus.
  func environment(_ base: [String: String]) -> [String: String] {
    base.merging(["DBUS_SESSION_BUS_ADDRESS": address]) { $1 }
  }

  /// Whether a process owns the agent's name on this bus.
  func agentIsRunning(_ environment: [String: String]) throws -> Bool {
    let result = try Command.run(
      "/usr/bin/gdbus",
      [
        "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus", "--method",
        "org.freedesktop.DBus.NameHasOwner", Self.name,
      ], environment: self.environment(environment))
    return result.stdout.contains("true")
  }

  /// Sends the agent `action` (with a GVariant `parameter`), as the shortcut does.
  @discardableResult
  func action(_ action: String, _ parameter: String? = nil, environment: [String: String]) throws -> Command.Result {
    let result = try Command.run(
      "/usr/bin/gapplication", ["action", Self.name, action] + (parameter.map { [$0] } ?? []),
      environment: self.environment(environment))
    guard result.exitCode == 0 else { throw ToolFailed(tool: "gapplication action \(action)", result: result) }
    return result
  }

  /// `arguments` as the GVariant text of an `as`, each quoted.
  static func strings(_ arguments: [String]) -> String {
    "["
      + arguments.map { "'" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'" }
      .joined(separator: ", ") + "]"
  }
}
