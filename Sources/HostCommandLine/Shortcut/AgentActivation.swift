import FoundationEssentials
import Glibc
import System

/// How the shortcut reaches the resident desktop agent: it sends the
/// agent's `translate-selection` action (`gapplication`, from GLib), and the
/// session bus starts the agent on the first one, from an activation file.
/// `make install` installs that file in `<prefix>/share/dbus-1/services`;
/// `shortcut install` also writes one in the person's own
/// `$XDG_DATA_HOME/dbus-1/services`, naming this installation's
/// `translation-host-desktop`, so a build tree or a prefix the bus does not
/// search works too. Only a file this tool wrote is replaced or removed.
enum AgentActivation {
  static let busName = "org.translationhost.Desktop"
  /// What the key runs: no path in it, so nothing to quote, and no GTK to start.
  static let shortcutCommand = "gapplication action \(busName) translate-selection"
  /// The first line of the file this tool writes, by which it knows it.
  static let marker = "# Written by 'translation-host shortcut install'; 'shortcut remove' removes it."

  /// `$XDG_DATA_HOME/dbus-1/services/org.translationhost.Desktop.service` (default under `~/.local/share`).
  static func path(_ environment: [String: String]) -> String {
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
    let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
    return data + "/dbus-1/services/\(busName).service"
  }

  /// The activation file for the agent `program`.
  static func contents(program: String) -> String {
    // The bus splits Exec as a shell would: the path is quoted, ' as '\''.
    let quoted = "'" + program.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    return """
      \(marker)
      [D-BUS Service]
      Name=\(busName)
      Exec=\(quoted) agent --gapplication-service

      """
  }

  /// Writes the activation file for `program`, unless the person wrote one of their own.
  /// - Returns: the path written, or nil when theirs was kept.
  static func install(program: String, environment: [String: String]) throws(ShortcutError) -> String? {
    let path = path(environment)
    if let existing = try? String(contentsOfFile: path, encoding: .utf8), !existing.hasPrefix(marker) { return nil }
    let folder = String(path[..<path.lastIndex(of: "/")!])
    do throws(Errno) {
      try Directory.create(folder, mode: 0o755)
      try AtomicFile.write(Array(contents(program: program).utf8), to: path, mode: 0o644, durable: true)
    } catch {
      throw .cannotWriteActivation(path, error)
    }
    return path
  }

  /// Removes the activation file if this tool wrote it.
  /// - Returns: whether it was removed.
  @discardableResult
  static func remove(environment: [String: String]) -> Bool {
    let path = path(environment)
    guard let existing = try? String(contentsOfFile: path, encoding: .utf8), existing.hasPrefix(marker) else { return false }
    return unlink(path) == 0
  }
}
