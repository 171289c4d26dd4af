import FoundationEssentials
import Glibc
import TestSupport

/// A private Wayland session for desktop tests: sway's headless backend
/// (1280×800 logical pixels, software rendering; at scale 2, a 2560×1600
/// output), or phoc's (Phosh's compositor, a second wlroots compositor with
/// the layer shell; no IPC, so no `swaymsg`), and the tools that act on it
/// as a person would (wtype's virtual keyboard,
/// `Tests/Fixtures/virtual_pointer.py`'s pointer, grim, wl-clipboard,
/// swaymsg).
///
/// sway refuses to run as root, so as root the compositor, and every
/// program on it, runs as the unprivileged `nobody` (65534); otherwise as
/// the user running the tests. Its runtime folder (the Wayland socket) is
/// private to that user, inside a temporary folder of the test's.
final class WaylandCompositor {
  static let size = (width: 1280, height: 800)

  /// The folder the session's programs own: XDG_RUNTIME_DIR, and their home.
  let runtime: String
  private let folder: TemporaryDirectory
  private let user: (uid: uid_t, gid: gid_t)
  private var server: RunningCommand!
  private(set) var socket = ""
  private(set) var ipcSocket = ""

  /// The output's scale: grim's screenshots have `scale` pixels to a logical one.
  let scale: Int

  enum Compositor: String, Sendable {
    case sway, phoc
  }
  let compositor: Compositor
  /// phoc's seat: phoc offers a `wl_seat` only once an input device comes
  /// (wtype's keyboard needs the seat), so a pointer is on it from the start.
  private var seatPointer: RunningCommand?

  init(_ compositor: Compositor = .sway, scale: Int = 1) throws {
    self.compositor = compositor
    self.scale = scale
    user = getuid() == 0 ? (65534, 65534) : (getuid(), getgid())
    folder = try TemporaryDirectory()
    runtime = folder.path + "/run"
    try FileManager.default.createDirectory(atPath: runtime + "/home", withIntermediateDirectories: true)
    let mode = "\(Self.size.width * scale)x\(Self.size.height * scale)"
    let config =
      compositor == .sway
      ? try folder.write("run/sway.config", "output HEADLESS-1 resolution \(mode) scale \(scale)\ndefault_border none\n")
      : try folder.write("run/phoc.ini", "[output:HEADLESS-1]\nmode = \(mode)\nscale = \(scale)\n")
    for path in [runtime, runtime + "/home", config] {
      guard chown(path, user.uid, user.gid) == 0 else {
        throw ToolFailed(tool: "chown \(path)", result: .init(exitCode: errno, stdout: "", stderr: ""))
      }
    }
    chmod(runtime, 0o700)
    server = try RunningCommand(
      command(compositor == .sway ? ["/usr/bin/sway", "-c", config] : ["/usr/bin/phoc", "-C", config]),
      environment: baseEnvironment.merging([
        "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman",
      ]) { $1 })
    (socket, ipcSocket) = try eventually(
      "\(compositor)'s Wayland (and IPC) sockets", timeout: .seconds(30), interval: .milliseconds(100),
      detail: { self.server.stderr }
    ) {
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? []
      guard let wayland = entries.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }) else {
        return nil
      }
      guard compositor == .sway else { return (wayland, "") }
      guard let ipc = entries.first(where: { $0.hasPrefix("sway-ipc.") }) else { return nil }
      return (wayland, runtime + "/" + ipc)
    }
    if compositor == .phoc {
      seatPointer = try start([
        "/usr/bin/python3", Self.fixture("virtual_pointer.py"), "wait", "3600000",
      ])
      try eventually("phoc's seat", timeout: .seconds(30), interval: .milliseconds(100), detail: { self.server.stderr }) {
        try run("/usr/bin/weston-info").stdout.contains("'wl_seat'")
      }
    }
  }

  deinit {
    seatPointer?.stop()
    server.stop()
  }

  private var baseEnvironment: [String: String] {
    [
      "PATH": "/usr/bin:/bin", "HOME": runtime + "/home", "XDG_RUNTIME_DIR": runtime, "LANG": "C.UTF-8",
      "XDG_CONFIG_HOME": runtime + "/home/config", "XDG_DATA_HOME": runtime + "/home/data",
      "XDG_CACHE_HOME": runtime + "/home/cache",
    ]
  }

  /// The environment of a program on this session.
  var environment: [String: String] {
    baseEnvironment.merging(
      ["WAYLAND_DISPLAY": socket, "GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1"]
        .merging(ipcSocket.isEmpty ? [:] : ["SWAYSOCK": ipcSocket]) { $1 }
    ) { $1 }
  }

  /// `arguments`, run as the session's user.
  func command(_ arguments: [String]) -> [String] {
    getuid() == 0
      ? ["/usr/bin/setpriv", "--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", "--"] + arguments
      : arguments
  }

  /// `name` in Tests/Fixtures where the session's user can read it (`CFixture.shared`).
  static func fixture(_ name: String) -> String { CFixture.shared(name) }

  /// Runs `program` on this session, as its user.
  @discardableResult
  func run(_ program: String, _ arguments: String..., stdin: String? = nil) throws -> Command.Result {
    let full = command([program] + arguments)
    return try Command.run(full[0], Array(full.dropFirst()), environment: environment, stdin: stdin)
  }

  /// Runs `program` with `arguments` on this session, as its user.
  @discardableResult
  func run(_ program: String, _ arguments: [String]) throws -> Command.Result {
    let full = command([program] + arguments)
    return try Command.run(full[0], Array(full.dropFirst()), environment: environment)
  }

  /// Starts `arguments` on this session, as its user, in the background.
  func start(_ arguments: [String]) throws -> RunningCommand {
    try RunningCommand(command(arguments), environment: environment)
  }

  /// Presses keys, in order, with a virtual keyboard (wtype), in the window with the focus.
  ///
  /// Each wtype adds a keyboard to the seat and removes it when done; an
  /// application binds the new keyboard only after the compositor announced
  /// it, so wtype first waits 300 ms (`-s`), or the keys may reach no one.
  func press(_ keys: String...) throws {
    let full = command(["/usr/bin/wtype", "-s", "300"] + keys.flatMap { ["-k", $0] })
    let result = try Command.run(full[0], Array(full.dropFirst()), environment: environment)
    guard result.exitCode == 0 else { throw ToolFailed(tool: "wtype", result: result) }
  }

  /// Clicks the left button at `x`, `y` (logical pixels) with a pointer
  /// added to the seat for it (headless sway has none), as a person would.
  func click(x: Int, y: Int) throws {
    let result = try run(
      "/usr/bin/python3", Self.fixture("virtual_pointer.py"), "wait", "300", "click", "\(x)",
      "\(y)", "wait", "100")
    guard result.exitCode == 0 else { throw ToolFailed(tool: "virtual_pointer.py", result: result) }
  }

  /// The frame of the window titled `title` (sway's tree), once it exists.
  func frame(ofWindowTitled title: String) throws -> (x: Int, y: Int, width: Int, height: Int)? {
    let tree = try run("/usr/bin/swaymsg", "-t", "get_tree", "-r")
    guard tree.exitCode == 0, let root = try? JSONDecoder().decode(SwayNode.self, from: Data(tree.stdout.utf8)) else {
      return nil
    }
    return root.find(title).map { ($0.rect.x, $0.rect.y, $0.rect.width, $0.rect.height) }
  }

  /// Whether a window's title starts with `prefix` (sway's tree).
  func hasWindow(titledLike prefix: String) throws -> Bool {
    let tree = try run("/usr/bin/swaymsg", "-t", "get_tree", "-r")
    guard tree.exitCode == 0, let root = try? JSONDecoder().decode(SwayNode.self, from: Data(tree.stdout.utf8)) else {
      return false
    }
    return root.find(where: { $0.hasPrefix(prefix) }) != nil
  }

  /// Types `key` with `modifier` held (wtype), in the window with the focus: `ctrl`, `a` is Ctrl+A.
  func chord(_ modifier: String, _ key: String) throws {
    let result = try run("/usr/bin/wtype", "-s", "300", "-M", modifier, key, "-m", modifier)
    guard result.exitCode == 0 else { throw ToolFailed(tool: "wtype", result: result) }
  }

  /// Gives the keyboard focus to the window whose title matches `pattern` (a regular expression, anchored at its start).
  func focus(titledLike pattern: String) throws {
    let result = try run("/usr/bin/swaymsg", "[title=\"^\(pattern)\"] focus")
    guard result.exitCode == 0 else { throw ToolFailed(tool: "swaymsg focus", result: result) }
  }

  /// Whether the window titled `title` floats (sway's tree: among a workspace's floating nodes).
  func isFloating(windowTitled title: String) throws -> Bool {
    let tree = try run("/usr/bin/swaymsg", "-t", "get_tree", "-r")
    guard tree.exitCode == 0, let root = try? JSONDecoder().decode(SwayNode.self, from: Data(tree.stdout.utf8)) else {
      return false
    }
    return root.floatingNames().contains(title)
  }

  /// The title of the window with the keyboard focus (sway's tree), nil when none has it.
  func focusedWindowTitle() throws -> String? {
    let tree = try run("/usr/bin/swaymsg", "-t", "get_tree", "-r")
    guard tree.exitCode == 0, let root = try? JSONDecoder().decode(SwayNode.self, from: Data(tree.stdout.utf8)) else {
      return nil
    }
    return root.focusedNode()?.name
  }

  /// The PRIMARY selection's text, nil when empty.
  func primarySelection() throws -> String? {
    let result = try run("/usr/bin/wl-paste", "--primary", "--no-newline")
    return result.exitCode == 0 ? result.stdout : nil
  }

  /// A screenshot of the whole output (grim), as PNG at `path`.
  func screenshot(to path: String) throws {
    let shot = runtime + "/screenshot.png"
    let result = try run("/usr/bin/grim", shot)
    guard result.exitCode == 0 else { throw ToolFailed(tool: "grim", result: result) }
    _ = try? FileManager.default.removeItem(atPath: path)
    try FileManager.default.copyItem(atPath: shot, toPath: path)
  }

  /// The clipboard's text, nil when empty.
  func clipboard() throws -> String? {
    let result = try run("/usr/bin/wl-paste", "--no-newline")
    return result.exitCode == 0 ? result.stdout : nil
  }

  /// Puts `text` in the PRIMARY selection, as selecting it in an application does.
  func select(_ text: String) throws {
    let result = try run("/usr/bin/wl-copy", "--primary", text)
    guard result.exitCode == 0 else { throw ToolFailed(tool: "wl-copy", result: result) }
  }

  private struct SwayNode: Decodable {
    struct Rect: Decodable {
      var x: Int
      var y: Int
      var width: Int
      var height: Int
    }
    var name: String?
    var focused: Bool?
    var rect: Rect
    var nodes: [SwayNode]?
    var floatingNodes: [SwayNode]?

    private enum CodingKeys: String, CodingKey {
      case name, focused, rect, nodes
      case floatingNodes = "floating_nodes"
    }

    func find(_ title: String) -> SwayNode? { find(where: { $0 == title }) }

    /// The names of the windows under the floating nodes of this node and its descendants.
    func floatingNames() -> [String] {
      (floatingNodes ?? []).flatMap { $0.names() } + (nodes ?? []).flatMap { $0.floatingNames() }
    }

    func names() -> [String] { (name.map { [$0] } ?? []) + ((nodes ?? []) + (floatingNodes ?? [])).flatMap { $0.names() } }

    func focusedNode() -> SwayNode? {
      if focused == true { return self }
      return ((nodes ?? []) + (floatingNodes ?? [])).lazy.compactMap { $0.focusedNode() }.first
    }

    func find(where matches: (String) -> Bool) -> SwayNode? {
      if let name, matches(name), nodes?.isEmpty ?? true { return self }
      for child in (nodes ?? []) + (floatingNodes ?? []) {
        if let found = child.find(where: matches) { return found }
      }
      return nil
    }
  }
}
