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
  static let backEnd = CFixture.shared("portal_backend.py")

  /// The folder of the bus, the `.portal` file, the logs, the answer and the calls.
  package let folder: String
  private let temporary: TemporaryDirectory?
  /// The session bus the portal is on (`DBUS_SESSION_BUS_ADDRESS`).
  package let address: String
  private var processes: [BackgroundProcess] = []
  private var backEndProcess: BackgroundProcess?

  /// The portal on the bus at `address` (nil: a private bus started here).
  /// With `backEnd` false, no back end is there for this desktop: the front
  /// end runs and offers neither portal, as on a desktop whose back ends
  /// lack them. For a desktop session of another user (sway's tests run
  /// as `nobody`), `folder` is one that user owns, `command` runs a program
  /// as that user and `environment` is the session's; with `typing`, the
  /// back end types each key it gets into the focused window with wtype
  /// (on the session's Wayland display), as a compositor's remote desktop does.
  package init(
    address: String? = nil, backEnd withBackEnd: Bool = true, answer: String = "grant", folder: String? = nil,
    command: @escaping ([String]) -> [String] = { $0 }, environment base: [String: String]? = nil,
    typing: Bool = false
  ) throws {
    temporary = folder == nil ? try TemporaryDirectory() : nil
    let folder = folder ?? temporary!.path
    self.folder = folder
    try FileManager.default.createDirectory(atPath: folder + "/portals", withIntermediateDirectories: true)
    var environment = base ?? ProcessInfo.processInfo.environment
    // Stopped on deinit, also when this throws part way.
    var started: [BackgroundProcess] = []
    func start(_ arguments: [String], log: String) throws -> BackgroundProcess {
      let full = command(arguments)
      let process = try BackgroundProcess(full[0], Array(full.dropFirst()), log: log, environment: environment)
      started.append(process)
      return process
    }
    if let address {
      self.address = address
    } else {
      try Self.write(
        folder + "/session.conf",
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(folder)/bus</listen>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """)
      _ = try start(
        ["/usr/bin/dbus-daemon", "--config-file=\(folder)/session.conf", "--nofork", "--nopidfile"],
        log: folder + "/dbus.log")
      self.address = "unix:path=\(folder)/bus"
      try eventually("dbus-daemon to listen", timeout: .seconds(20)) { FileManager.default.fileExists(atPath: folder + "/bus") }
    }
    environment["DBUS_SESSION_BUS_ADDRESS"] = self.address
    environment["XDG_CURRENT_DESKTOP"] = Self.desktop
    environment["XDG_DESKTOP_PORTAL_DIR"] = folder + "/portals"
    environment["GSETTINGS_BACKEND"] = "memory"
    if typing { environment["PORTAL_BACKEND_TYPES"] = "wtype" }
    try Self.write(folder + "/answer", answer + "\n")
    var backEnd: BackgroundProcess? = nil
    if withBackEnd {
      try Self.write(
        folder + "/portals/\(Self.desktop).portal",
        """
        [portal]
        DBusName=\(Self.backEndName)
        Interfaces=org.freedesktop.impl.portal.RemoteDesktop;org.freedesktop.impl.portal.GlobalShortcuts;
        UseIn=\(Self.desktop)

        """)
      let log = folder + "/backend.log"
      backEnd = try start(["/usr/bin/python3", Self.backEnd, folder, Self.backEndName], log: log)
      try eventually("the portal's back end to own its name", timeout: .seconds(30), detail: { Self.read(log) }) {
        Self.read(log).contains("ready")
      }
    }
    let log = folder + "/frontend.log"
    _ = try start([Self.frontEnd, "--verbose"], log: log)
    try eventually("xdg-desktop-portal to own its name", timeout: .seconds(30), detail: { Self.read(log) }) {
      Self.read(log).contains("org.freedesktop.portal.Desktop acquired")
    }
    processes = started
    backEndProcess = backEnd
  }

  deinit { stop() }

  /// Stops the front end, the back end and the bus (if started here), last first.
  package func stop() {
    for process in processes.reversed() { process.stop() }
    processes = []
  }

  /// What the person answers the portal's next dialog: "grant" or "deny".
  package func answer(_ answer: String) throws { try Self.write(folder + "/answer", answer + "\n") }

  /// The calls the back end got, in order, each a JSON object.
  package var calls: [[String: Any]] {
    Self.read(folder + "/calls").split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
    }
  }

  /// The calls named `name` (`RemoteDesktop.Start`, `NotifyKeyboardKeysym`, …).
  package func calls(_ name: String) -> [[String: Any]] {
    calls.filter { $0["call"] as? String == name }
  }

  /// The text the keysyms of the recorded presses make (X11's rule:
  /// Latin-1 as itself, `0x01000000` + a code point, Return and Tab), or
  /// nil when the presses and releases do not alternate, one key at a time.
  package var typedText: String? {
    var text = ""
    var pressed: Int?
    for key in calls("RemoteDesktop.NotifyKeyboardKeysym") {
      guard let keysym = key["keysym"] as? Int, let state = key["state"] as? Int else { return nil }
      if state == 1 {
        guard pressed == nil else { return nil }
        pressed = keysym
        let scalar: Int =
          switch keysym {
          case 0xFF0D: 0x0A
          case 0xFF09: 0x09
          case 0x0100_0000...: keysym - 0x0100_0000
          default: keysym
          }
        guard let character = Unicode.Scalar(UInt32(clamping: scalar)) else { return nil }
        text.unicodeScalars.append(character)
      } else {
        guard pressed == keysym else { return nil }
        pressed = nil
      }
    }
    return pressed == nil ? text : nil
  }

  /// Has the back end emit `Activated` for every shortcut it bound, as a key press would.
  package func pressShortcut() {
    if let backEndProcess { kill(backEndProcess.pid, SIGUSR1) }
  }

  /// The front end's and back end's logs, for a failure's detail.
  package var log: String {
    ["frontend.log", "backend.log"].map { "\($0): " + Self.read(folder + "/" + $0) }.joined(separator: "\n")
  }

  /// Writes `contents` to `path`, readable by everyone (the back end may run as another user).
  private static func write(_ path: String, _ contents: String) throws {
    try contents.write(toFile: path, atomically: false, encoding: .utf8)
    chmod(path, 0o644)
  }

  private static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
}
