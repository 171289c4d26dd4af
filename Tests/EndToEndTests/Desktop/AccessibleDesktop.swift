import FoundationEssentials
import Glibc
import TestSupport

/// An X11 desktop as people have one: Xvfb, a window manager (xfwm4), a
/// session bus of its own on which the accessibility bus (at-spi2-core's
/// `org.a11y.Bus`) is activated, and applications with accessibility on.
/// Everything it starts is stopped by pid.
final class AccessibleDesktop {
  let display: X11Server
  let folder: TemporaryDirectory
  let environment: [String: String]
  private let bus: RunningCommand
  private let windowManager: RunningCommand
  private var applications: [RunningCommand] = []

  /// With `compositor`, xfwm4 composites the screen (translucent windows, shadows).
  init(compositor: Bool = false) throws {
    display = try X11Server()
    folder = try TemporaryDirectory()
    let home = folder.path + "/home"
    let runtime = folder.path + "/run"
    try FileManager.default.createDirectory(
      atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    var base = display.environment([
      "PATH": "/usr/bin:/bin", "HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data",
      "XDG_CACHE_HOME": home + "/cache", "XDG_RUNTIME_DIR": runtime, "LANG": "C.UTF-8",
    ])
    base["NO_AT_BRIDGE"] = nil
    bus = try RunningCommand(
      ["/usr/bin/dbus-daemon", "--session", "--nofork", "--print-address=1"], environment: base)
    let bus = bus
    let address = try eventually("the session bus to start", timeout: .seconds(30), detail: { bus.stderr }) {
      bus.stdout.hasSuffix("\n") ? bus.stdout.trimmingWhitespace() : nil
    }
    base["DBUS_SESSION_BUS_ADDRESS"] = address
    environment = base
    windowManager = try RunningCommand(
      ["/usr/bin/xfwm4", compositor ? "--compositor=on" : "--compositor=off", "--vblank=off"], environment: base)
    try eventually("xfwm4 to manage the screen", timeout: .seconds(30)) {
      (try? display.run("/usr/bin/xprop", "-root", "_NET_SUPPORTING_WM_CHECK").stdout.contains("window id")) == true
    }
  }

  deinit {
    for application in applications.reversed() { application.stop() }
    windowManager.stop()
    bus.stop()
  }

  /// Starts `arguments` on this desktop; it is stopped with the desktop.
  @discardableResult
  func start(_ arguments: [String]) throws -> RunningCommand {
    let application = try RunningCommand(arguments, environment: environment)
    applications.append(application)
    return application
  }

  /// Whether an application whose AT-SPI name is `name` has joined the accessibility bus.
  func hasAccessibleApplication(named name: String) -> Bool {
    let script = """
      import gi
      gi.require_version('Atspi', '2.0')
      from gi.repository import Atspi
      desktop = Atspi.get_desktop(0)
      print('\\n'.join(desktop.get_child_at_index(i).get_name() for i in range(desktop.get_child_count())))
      """
    let result = try? Command.run("/usr/bin/python3", ["-c", script], environment: environment)
    return result?.stdout.split(separator: "\n").contains { $0 == name } == true
  }

  /// The bounds of the selection in the focused text of the application
  /// named `name` on the accessibility bus, from its first and last
  /// characters: in screen coordinates, or (GTK 4 gives only those) in
  /// `window`'s, moved by its origin. Nil when nothing is selected there.
  func selectionExtents(application name: String, window: String) throws -> (x: Int, y: Int, width: Int, height: Int)? {
    let script = """
      import sys, gi
      gi.require_version('Atspi', '2.0')
      from gi.repository import Atspi
      def focused(obj, depth):
          if obj is None or depth > 60:
              return None
          if 'Text' in obj.get_interfaces() and obj.get_state_set().contains(Atspi.StateType.FOCUSED):
              return obj
          for i in range(obj.get_child_count()):
              found = focused(obj.get_child_at_index(i), depth + 1)
              if found:
                  return found
          return None
      desktop = Atspi.get_desktop(0)
      for i in range(desktop.get_child_count()):
          app = desktop.get_child_at_index(i)
          if app.get_name() != sys.argv[1]:
              continue
          text = focused(app, 0)
          if text is None or Atspi.Text.get_n_selections(text) == 0:
              break
          span = Atspi.Text.get_selection(text, 0)
          for kind, coords in (('screen', Atspi.CoordType.SCREEN), ('window', Atspi.CoordType.WINDOW)):
              try:
                  a = Atspi.Text.get_character_extents(text, span.start_offset, coords)
                  b = Atspi.Text.get_character_extents(text, span.end_offset - 1, coords)
              except Exception:
                  continue  # GTK 4 refuses screen coordinates
              if a.width > 0 or a.height > 0:
                  x, y = min(a.x, b.x), min(a.y, b.y)
                  print(kind, x, y, max(a.x + a.width, b.x + b.width) - x, max(a.y + a.height, b.y + b.height) - y)
                  break
          break
      """
    let result = try Command.run("/usr/bin/python3", ["-c", script, name], environment: environment)
    let fields = result.stdout.split(separator: " ").map { $0.trimmingWhitespace() }
    guard result.exitCode == 0, fields.count == 5, let x = Int(fields[1]), let y = Int(fields[2]),
      let width = Int(fields[3]), let height = Int(fields[4])
    else { return nil }
    guard fields[0] == "window" else { return (x, y, width, height) }
    let origin = try origin(of: window)
    return (x + origin.x, y + origin.y, width, height)
  }

  /// Where `window`'s top-left corner is on the screen, as xwininfo says
  /// (xdotool's geometry counts a window manager's frame twice).
  func origin(of window: String) throws -> (x: Int, y: Int) {
    let result = try display.run("/usr/bin/xwininfo", "-id", window)
    var values: [String: Int] = [:]
    for line in result.stdout.split(separator: "\n") {
      let parts = line.split(separator: ":")
      if parts.count == 2 { values[parts[0].trimmingWhitespace()] = Int(parts[1].trimmingWhitespace()) }
    }
    guard let x = values["Absolute upper-left X"], let y = values["Absolute upper-left Y"] else {
      throw ToolFailed(tool: "xwininfo -id \(window)", result: result)
    }
    return (x, y)
  }

  /// The clipboard's `target` (a MIME type, `TARGETS`, `TIMESTAMP`) as bytes; nil when it is not offered.
  func clipboard(_ target: String) throws -> [UInt8]? {
    let file = folder.path + "/clipboard-read"
    let result = try Command.run(
      "/bin/sh", ["-c", "exec /usr/bin/xclip -o -selection clipboard -t \"$1\" > \"$2\"", "sh", target, file],
      environment: environment)
    guard result.exitCode == 0 else { return nil }
    return Array(try Data(contentsOf: URL(fileURLWithPath: file)))
  }
}

/// Tests/Fixtures/rich_clipboard.py: a GTK 4 application that copies a picture and HTML at once.
enum RichClipboard {
  static let script = CFixture.packageRoot + "/Tests/Fixtures/rich_clipboard.py"
}
