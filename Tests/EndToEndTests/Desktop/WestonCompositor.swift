import FoundationEssentials
import Glibc
import TestSupport

/// A private Wayland session on Weston 10 (Debian's `weston`): its headless
/// backend (1280×800, pixman) with the desktop shell, a compositor without
/// `zwlr_layer_shell_v1`, xdg-foreign or a virtual keyboard, as GNOME's
/// Mutter is without the first. Weston has no IPC that says where a window
/// is: the tests find the popover on screenshots (`weston-screenshooter`,
/// which `--debug` lets any client use), as the pixels that differ from
/// the empty desktop. Weston runs as the user running the tests.
final class WestonCompositor {
  static let size = (width: 1280, height: 800)
  static let socket = "wayland-weston"

  /// XDG_RUNTIME_DIR and home of the session's programs.
  let runtime: String
  private let folder: TemporaryDirectory
  private var server: RunningCommand!

  init() throws {
    folder = try TemporaryDirectory()
    runtime = folder.path + "/run"
    try FileManager.default.createDirectory(atPath: runtime + "/home", withIntermediateDirectories: true)
    chmod(runtime, 0o700)
    server = try RunningCommand(
      [
        "/usr/bin/weston", "--backend=headless-backend.so", "--use-pixman", "--shell=desktop-shell.so",
        "--socket=\(Self.socket)", "--width=\(Self.size.width)", "--height=\(Self.size.height)", "--idle-time=0",
        "--debug",
      ],
      environment: environment)
    try eventually("Weston's socket", timeout: .seconds(30), interval: .milliseconds(100), detail: { self.server.stderr }) {
      FileManager.default.fileExists(atPath: runtime + "/" + Self.socket)
    }
  }

  deinit { server.stop() }

  /// The environment of a program on this session.
  var environment: [String: String] {
    [
      "PATH": "/usr/bin:/bin", "HOME": runtime + "/home", "XDG_RUNTIME_DIR": runtime, "LANG": "C.UTF-8",
      "XDG_CONFIG_HOME": runtime + "/home/config", "XDG_DATA_HOME": runtime + "/home/data",
      "XDG_CACHE_HOME": runtime + "/home/cache", "WAYLAND_DISPLAY": Self.socket, "GDK_BACKEND": "wayland",
      "NO_AT_BRIDGE": "1", "GTK_A11Y": "none",
    ]
  }

  /// Starts `arguments` on this session, in the background.
  func start(_ arguments: [String]) throws -> RunningCommand {
    try RunningCommand(arguments, environment: environment)
  }

  /// A screenshot of the whole output, as PNG at `path`.
  func screenshot(to path: String) throws {
    // weston-screenshooter writes wayland-screenshot-<time>.png into its working folder.
    let shots = runtime + "/shots"
    _ = try? FileManager.default.removeItem(atPath: shots)
    try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
    let result = try Command.run(
      "/bin/sh", ["-c", "cd \"$1\" && exec /usr/bin/weston-screenshooter", "sh", shots], environment: environment)
    guard result.exitCode == 0, let name = try FileManager.default.contentsOfDirectory(atPath: shots).first else {
      throw ToolFailed(tool: "weston-screenshooter", result: result)
    }
    _ = try? FileManager.default.removeItem(atPath: path)
    try FileManager.default.moveItem(atPath: shots + "/" + name, toPath: path)
  }

  /// Waits for the desktop shell to have drawn the desktop, and leaves a
  /// screenshot of it at `path`: its panel (the clock's text) and its
  /// background, the same in two screenshots in a row. Until
  /// `weston-desktop-shell` (a client Weston starts) draws, the output is
  /// black, and two black screenshots are alike too: on a loaded machine
  /// such a reference made every later screenshot differ everywhere.
  func screenshotOfTheDesktop(to path: String) throws {
    let next = path + ".next.png"
    try screenshot(to: path)
    try eventually("the desktop to be drawn", timeout: .seconds(60), interval: .milliseconds(300)) {
      try screenshot(to: next)
      let settled =
        try Screenshot.differingPixels(path, next) == 0
        && Screenshot.colours(in: next, x: 0, y: 0, width: Self.size.width, height: Self.panelHeight) > 8
        && Screenshot.colours(
          in: next, x: 0, y: Self.panelHeight, width: Self.size.width, height: Self.size.height - Self.panelHeight) > 16
      _ = try? FileManager.default.removeItem(atPath: path)
      try FileManager.default.moveItem(atPath: next, toPath: path)
      return settled
    }
  }

  /// The height of the desktop shell's panel, at the top: its clock changes every minute.
  static let panelHeight = 32

  /// The bounding box of the pixels of the PNG at `path` that differ from
  /// `empty` (by more than 2 %) below the panel, nil when none do.
  static func changedArea(_ path: String, from empty: String) throws -> (x: Int, y: Int, width: Int, height: Int)? {
    let below = "\(Self.size.width)x\(Self.size.height - Self.panelHeight)+0+\(Self.panelHeight)"
    let result = try Command.run(
      "/usr/bin/convert",
      [
        empty, path, "-compose", "difference", "-composite", "-crop", below, "+repage", "-fuzz", "2%", "-format", "%@",
        "info:",
      ])
    guard result.exitCode == 0 else { throw ToolFailed(tool: "convert", result: result) }
    // "WxH+X+Y"; an image with no difference trims to "0x0+…" or the whole image with a warning.
    let numbers = result.stdout.trimmingWhitespace().split(whereSeparator: { $0 == "x" || $0 == "+" }).compactMap {
      Int($0)
    }
    guard numbers.count == 4, numbers[0] > 1, numbers[1] > 1,
      numbers[0] < Self.size.width || numbers[1] < Self.size.height - Self.panelHeight
    else { return nil }
    return (numbers[2], numbers[3] + Self.panelHeight, numbers[0], numbers[1])
  }
}
