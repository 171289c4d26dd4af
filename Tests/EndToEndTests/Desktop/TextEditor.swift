import FoundationEssentials
import Glibc
import TestSupport

/// GNOME Text Editor (a real GTK 4 application) editing one file on a
/// test display, stopped by pid. It runs without a session bus
/// (`--standalone` needs none): a `dbus-run-session` killed with the test
/// would leave its socket folder in /tmp.
final class TextEditor {
  let file: String
  let window: String
  private let process: RunningCommand

  /// Opens `file` on `display` and waits for its window.
  init(file: String, on display: X11Server, home: String) throws {
    self.file = file
    let environment = display.environment([
      "PATH": "/usr/bin:/bin", "HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data",
      "XDG_CACHE_HOME": home + "/cache", "LANG": "C.UTF-8",
    ])
    process = try RunningCommand(
      ["/usr/bin/gnome-text-editor", "--standalone", file], environment: environment)
    // GNOME Text Editor names its window "<file> (<folder>) - Text Editor".
    window = try display.window(matching: "^" + X11Server.escaped(String(file.split(separator: "/").last ?? "")) + " ")
    try display.xdotool("windowfocus", "--sync", window)
  }

  /// Selects the whole text anew (Ctrl+End, then Ctrl+A, with the editor
  /// focused) until the editor offers it as the PRIMARY selection: keys
  /// pressed before the editor has loaded the file select nothing, and
  /// another client taking the selection makes GTK drop its own.
  func selectAll(on display: X11Server) throws {
    let text = contents.hasSuffix("\n") ? String(contents.dropLast()) : contents
    try eventually(
      "the editor's selection to be the PRIMARY selection", timeout: .seconds(30), interval: .milliseconds(500),
      detail: { "PRIMARY holds \(String(describing: try? display.primarySelection())); the file: \(text)" }
    ) {
      try display.xdotool("windowfocus", "--sync", window)
      try display.xdotool("key", "ctrl+End", "ctrl+a")
      return try display.primarySelection() == text
    }
  }

  /// Saves the file (Ctrl+S with the editor focused).
  func save(on display: X11Server) throws {
    try display.xdotool("windowfocus", "--sync", window)
    try display.xdotool("key", "ctrl+s")
  }

  /// The file's contents on disk.
  var contents: String { (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }
}
