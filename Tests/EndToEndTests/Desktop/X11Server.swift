import FoundationEssentials
import Glibc
import TestSupport

/// A private X11 display (Xvfb, 1280×800) for desktop tests, and the tools
/// that act on it as a person would (xdotool, ImageMagick's `import`, xclip).
///
/// It listens on Linux's abstract socket only (`-nolisten unix`), so that
/// it leaves nothing in /tmp; its lock file goes when it is stopped by pid.
final class X11Server {
  static let size = (width: 1280, height: 800)

  let display: String
  private let server: RunningCommand

  /// Starts Xvfb on a display number it finds free itself (`-displayfd`),
  /// which it writes on its stdout once it accepts connections. `-noreset`:
  /// by default it resets when its last client leaves, and refuses
  /// connections meanwhile.
  init() throws {
    server = try RunningCommand(
      [
        "/usr/bin/Xvfb", "-displayfd", "1", "-noreset", "-screen", "0", "\(Self.size.width)x\(Self.size.height)x24", "-nolisten",
        "tcp",
        "-nolisten", "unix",
      ], environment: ProcessInfo.processInfo.environment)
    let server = server
    display = try eventually(
      "Xvfb to choose a display", timeout: .seconds(30), interval: .milliseconds(50), detail: { server.stderr }
    ) {
      guard !server.hasEnded else {
        throw ToolFailed(tool: "Xvfb", result: .init(exitCode: -1, stdout: "", stderr: server.stderr))
      }
      let number = server.stdout.trimmingWhitespace()
      return server.stdout.hasSuffix("\n") && Int(number) != nil ? ":" + number : nil
    }
  }

  deinit { server.stop() }

  /// What a program on this display needs besides `base`.
  func environment(_ base: [String: String]) -> [String: String] {
    base.merging(["DISPLAY": display, "GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1"]) { $1 }
  }

  /// Runs `program` on this display.
  @discardableResult
  func run(_ program: String, _ arguments: String..., stdin: String? = nil) throws -> Command.Result {
    try Command.run(program, arguments, environment: environment(ProcessInfo.processInfo.environment), stdin: stdin)
  }

  /// Runs xdotool and returns its output, failing on an error.
  @discardableResult
  func xdotool(_ arguments: String...) throws -> String {
    let result = try Command.run(
      "/usr/bin/xdotool", arguments, environment: environment(ProcessInfo.processInfo.environment))
    guard result.exitCode == 0 else { throw ToolFailed(tool: "xdotool \(arguments.joined(separator: " "))", result: result) }
    return result.stdout
  }

  /// The first visible window whose name is `name` exactly, once it exists.
  func window(named name: String, timeout: Duration = .seconds(60)) throws -> String {
    try window(matching: "^" + Self.escaped(name) + "$", timeout: timeout)
  }

  /// The first visible window whose name matches the regular expression `pattern`, once it exists.
  func window(matching pattern: String, timeout: Duration = .seconds(60)) throws -> String {
    try eventually("a window named like '\(pattern)'", timeout: timeout, interval: .milliseconds(100)) {
      let found = try? xdotool("search", "--onlyvisible", "--name", pattern)
      return found?.split(separator: "\n").first.map(String.init)
    }
  }

  /// `text` with the characters a regular expression gives a meaning escaped.
  static func escaped(_ text: String) -> String {
    text.map { "\\^$.|?*+()[]{}".contains($0) ? "\\\($0)" : String($0) }.joined()
  }

  /// Whether a visible window is named `name`.
  func hasWindow(named name: String) -> Bool {
    (try? xdotool("search", "--onlyvisible", "--name", "^" + Self.escaped(name) + "$"))?.isEmpty == false
  }

  /// The window's frame on the screen.
  func geometry(of window: String) throws -> (x: Int, y: Int, width: Int, height: Int) {
    var values: [String: Int] = [:]
    for line in try xdotool("getwindowgeometry", "--shell", window).split(separator: "\n") {
      let parts = line.split(separator: "=")
      if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
    }
    return (values["X"] ?? -1, values["Y"] ?? -1, values["WIDTH"] ?? 0, values["HEIGHT"] ?? 0)
  }

  /// A screenshot of the whole screen, as PNG at `path`.
  func screenshot(to path: String) throws {
    let result = try run("/usr/bin/import", "-window", "root", path)
    guard result.exitCode == 0 else { throw ToolFailed(tool: "import", result: result) }
  }

  /// The clipboard's text (nil when it holds none).
  func clipboard() throws -> String? {
    let result = try run("/usr/bin/xclip", "-o", "-selection", "clipboard")
    return result.exitCode == 0 ? result.stdout : nil
  }

  /// The PRIMARY selection's text (nil when nothing is selected).
  func primarySelection() throws -> String? {
    let result = try run("/usr/bin/xclip", "-o", "-selection", "primary")
    return result.exitCode == 0 ? result.stdout : nil
  }

  /// Puts `text` on the clipboard (xclip keeps serving it until something else is copied).
  func setClipboard(_ text: String) throws {
    let result = try run("/usr/bin/xclip", "-i", "-selection", "clipboard", stdin: text)
    guard result.exitCode == 0 else { throw ToolFailed(tool: "xclip", result: result) }
  }
}

struct ToolFailed: Error, CustomStringConvertible {
  var tool: String
  var result: Command.Result
  var description: String { "\(tool) failed with \(result.exitCode): \(result.stderr)" }
}
