import Foundation
import Glibc

/// xdg-desktop-portal as a desktop runs it, for the portal clients' tests:
/// the real front end (`/usr/libexec/xdg-desktop-portal`, Debian's
/// xdg-desktop-portal 1.16) with a back end of the tests' own
/// (`Tests/Fixtures/portal_backend.py`, implementing
/// `org.freedesktop.impl.portal.RemoteDesktop` and `.GlobalShortcuts`),
/// found by its `.portal` file (`XDG_DESKTOP_PORTAL_DIR`, `UseIn` the
/// desktop the front end is told it runs in), on a session bus: a private
/// `dbus-daemon` of its own unless given one. Every process is stopped by
/// its pid when this value goes.
package final class PortalDesktop {
  package static let frontEnd = "/usr/libexec/xdg-desktop-portal"
  package static let backEndName = "org.freedesktop.impl.portal.desktop.translationhosttest"
  package static let desktop = "translationhosttest"
  static let backEnd = CFixture.packageRoot + "/Tests/Fixtures/portal_backend.py"

  package let folder: TemporaryDirectory
  /// The session bus the portal is on (`DBUS_SESSION_BUS_ADDRESS`).
  package let address: String
  private var processes: [BackgroundProcess] = []
  private let backEndProcess: BackgroundProcess?

  /// The portal on the bus at `address` (nil: a private bus started here).
  /// With `backEnd` false, no back end is there for this desktop: the front
  /// end runs and offers neither portal, as on a desktop whose back ends lack them.
  package init(address: String? = nil, backEnd: Bool = true, answer: String = "grant") throws {
    folder = try TemporaryDirectory()
    var environment = ProcessInfo.processInfo.environment
    if let address {
      self.address = address
    } else {
      try folder.write(
        "session.conf",
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(folder.path)/bus</listen>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """)
      let daemon = try BackgroundProcess(
        "/usr/bin/dbus-daemon", ["--config-file=\(folder.path)/session.conf", "--nofork", "--nopidfile"],
        log: folder.path + "/dbus.log")
      processes.append(daemon)
      self.address = "unix:path=\(folder.path)/bus"
      let path = folder.path + "/bus"
      try eventually("dbus-daemon to listen", timeout: .seconds(20)) { FileManager.default.fileExists(atPath: path) }
    }
    environment["DBUS_SESSION_BUS_ADDRESS"] = self.address
    environment["XDG_CURRENT_DESKTOP"] = Self.desktop
    environment["XDG_DESKTOP_PORTAL_DIR"] = folder.path + "/portals"
    environment["GSETTINGS_BACKEND"] = "memory"
    try folder.write("answer", answer + "\n")
    if backEnd {
      try folder.write(
        "portals/\(Self.desktop).portal",
        """
        [portal]
        DBusName=\(Self.backEndName)
        Interfaces=org.freedesktop.impl.portal.RemoteDesktop;org.freedesktop.impl.portal.GlobalShortcuts;
        UseIn=\(Self.desktop)

        """)
      let log = folder.path + "/backend.log"
      let process = try BackgroundProcess(
        "/usr/bin/python3", [Self.backEnd, folder.path, Self.backEndName], log: log, environment: environment)
      backEndProcess = process
      processes.append(process)
      try eventually("the portal's back end to own its name", timeout: .seconds(30), detail: { Self.read(log) }) {
        Self.read(log).contains("ready")
      }
    } else {
      try FileManager.default.createDirectory(atPath: folder.path + "/portals", withIntermediateDirectories: true)
      backEndProcess = nil
    }
    let log = folder.path + "/frontend.log"
    processes.append(try BackgroundProcess(Self.frontEnd, ["--verbose"], log: log, environment: environment))
    try eventually("xdg-desktop-portal to own its name", timeout: .seconds(30), detail: { Self.read(log) }) {
      Self.read(log).contains("org.freedesktop.portal.Desktop acquired")
    }
  }

  deinit { stop() }

  /// Stops the front end, the back end and the bus (if started here), last first.
  package func stop() {
    for process in processes.reversed() { process.stop() }
    processes = []
  }

  /// What the person answers the portal's next dialog: "grant" or "deny".
  package func answer(_ answer: String) throws { try folder.write("answer", answer + "\n") }

  /// The calls the back end got, in order, each a JSON object.
  package var calls: [[String: Any]] {
    Self.read(folder.path + "/calls").split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
    }
  }

  /// The calls named `name` (`RemoteDesktop.Start`, `NotifyKeyboardKeysym`, …).
  package func calls(_ name: String) -> [[String: Any]] {
    calls.filter { $0["call"] as? String == name }
  }

  /// Has the back end emit `Activated` for every shortcut it bound, as a key press would.
  package func pressShortcut() {
    if let backEndProcess { kill(backEndProcess.pid, SIGUSR1) }
  }

  /// The front end's and back end's logs, for a failure's detail.
  package var log: String {
    ["frontend.log", "backend.log"].map { "\($0): " + Self.read(folder.path + "/" + $0) }.joined(separator: "\n")
  }

  private static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
}
