import Foundation
import Glibc
import TestSupport

/// A private session bus (`dbus-run-session` with a configuration of our
/// own) on which the built `translation-host serve` is bus-activatable, with
/// a private HOME, XDG folders and runtime folder. Each `run` is one bus
/// session: the service is activated by the first call and stops when the
/// bus goes away, which `run` checks by its process id.
struct BusSession {
  static let name = "org.translationhost.Translation1"
  static let objectPath = "/org/translationhost/Translation1"
  static let pythonClient = CFixture.packageRoot + "/Tests/Fixtures/dbus_client.py"
  static let interfaceFile = CFixture.packageRoot + "/Packaging/dbus/org.translationhost.Translation1.xml"

  let folder: TemporaryDirectory
  var environment: [String: String]

  /// A session bus's configuration: listening at `folder`/bus, activating
  /// from `folder`/services, letting every client see and own everything
  /// (and, with `othersMayConnect`, other users connect).
  static func configuration(in folder: String, othersMayConnect: Bool = false) -> String {
    """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig>
      <type>session</type>
      <listen>unix:path=\(folder)/bus</listen>
      <servicedir>\(folder)/services</servicedir>
      <policy context="default">\(othersMayConnect ? "\n    <allow user=\"*\"/>" : "")
        <allow send_destination="*" eavesdrop="true"/>
        <allow eavesdrop="true"/>
        <allow own="*"/>
      </policy>
    </busconfig>
    """
  }

  /// A session whose service searches `providerFolders` first, then the
  /// build's providers. With `othersMayConnect`, the bus lets any user
  /// connect (a test of the service's own check of its callers).
  init(providerFolders: [String] = [], othersMayConnect: Bool = false, serveArguments: [String] = []) throws {
    guard FileManager.default.isExecutableFile(atPath: Host.executable) else { throw Host.MissingBuild(path: Host.executable) }
    folder = try TemporaryDirectory()
    let runtime = folder.path + "/run"
    try FileManager.default.createDirectory(
      atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    // The activation file `make install` installs, pointing at the build.
    let activation = try String(contentsOfFile: CFixture.packageRoot + "/Packaging/dbus/\(Self.name).service", encoding: .utf8)
      .replacingOccurrences(of: "@PREFIX@/bin/translation-host", with: Host.executable)
      .replacingOccurrences(of: " serve\n", with: " " + (["serve"] + serveArguments).joined(separator: " ") + "\n")
    try folder.write("services/\(Self.name).service", activation)
    try folder.write("session.conf", Self.configuration(in: folder.path, othersMayConnect: othersMayConnect))
    environment = [
      "PATH": "/usr/bin:/bin", "HOME": folder.path, "LANG": "C.UTF-8",
      "XDG_DATA_HOME": folder.path + "/data", "XDG_CONFIG_HOME": folder.path + "/config",
      "XDG_CACHE_HOME": folder.path + "/cache", "XDG_RUNTIME_DIR": runtime,
      "TRANSLATION_HOST_PROVIDER_PATH": (providerFolders + [Host.providers]).joined(separator: ":"),
    ]
  }

  /// The outcome of one bus session.
  struct Outcome {
    var result: Command.Result
    /// The activated service's process id, while the bus lived (nil: it never ran).
    var servicePID: Int32?
    /// Whether the service had exited within 20 s of the bus going away.
    var serviceStopped: Bool
  }

  /// Runs `script` (`/bin/sh`) on a fresh bus, then waits for the service
  /// it activated to stop, killing it (and failing `serviceStopped`) if it does not.
  func run(_ script: String) throws -> Outcome {
    let pidFile = folder.path + "/service-pid"
    try? FileManager.default.removeItem(atPath: pidFile)
    let whole =
      script + """

        gdbus call --session -d org.freedesktop.DBus -o /org/freedesktop/DBus \
          -m org.freedesktop.DBus.GetConnectionUnixProcessID \(Self.name) > \(pidFile) 2>/dev/null || true
        """
    let result = try Command.run(
      "/usr/bin/dbus-run-session", ["--config-file=\(folder.path)/session.conf", "--", "/bin/sh", "-c", whole],
      environment: environment)
    // `(uint32 12345,)`
    let pid = ((try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? "").split(whereSeparator: { !$0.isNumber })
      .compactMap { Int32($0) }.last
    var stopped = true
    if let pid {
      stopped =
        (try? eventually("the bus-activated service (pid \(pid)) to stop", timeout: .seconds(20)) { () -> Bool? in
          kill(pid, 0) == 0 && !Self.isZombie(pid) ? nil : true
        }) != nil
      if !stopped { kill(pid, SIGKILL) }
    }
    return Outcome(result: result, servicePID: pid, serviceStopped: stopped)
  }

  /// Runs the Python client's `scenario` on a fresh bus and decodes what it printed.
  func python(_ scenario: String, _ arguments: [String] = []) throws -> (Outcome, Any) {
    let quoted = ([Self.pythonClient, scenario] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    let outcome = try run("/usr/bin/python3 " + quoted.joined(separator: " "))
    let json = try JSONSerialization.jsonObject(with: Data(outcome.result.stdout.utf8))
    return (outcome, json)
  }

  private static func isZombie(_ pid: Int32) -> Bool {
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
  }
}
