/// The key that runs `translation-host run --selection --replace` from any
/// application, as iOS's Translate item appears over any selection.
struct GlobalShortcut: Equatable, Sendable {
  /// Super+Shift+T: free in GNOME, KDE and sway's default configurations.
  static let defaultKey = "<Super><Shift>t"

  /// The key in GTK's accelerator syntax, normalised by GTK (`<Shift><Super>t`).
  let key: String
  /// The key as sway's `bindsym` writes it: `Mod4+Shift+t`.
  let swayKey: String
  /// The command line it runs.
  let command: String

  /// The line of sway's configuration that binds it.
  var swayBinding: String { "bindsym \(swayKey) exec \(command)" }

  /// The line of i3's configuration that binds it (i3 writes keys as sway does).
  var i3Binding: String { "bindsym \(swayKey) exec --no-startup-id \(command)" }

  /// The key as KDE's shortcut settings write it: `Meta+Shift+T`.
  var kdeKey: String {
    let parts = swayKey.split(separator: "+").map(String.init)
    let names = ["Mod4": "Meta", "Mod1": "Alt", "Ctrl": "Ctrl", "Shift": "Shift"]
    let modifiers = parts.dropLast().map { names[$0] ?? $0 }
    let key = parts.last ?? ""
    return (modifiers + [key.count == 1 ? key.uppercased() : key]).joined(separator: "+")
  }

  /// Xfce's setting for it: the property of `xfce4-keyboard-shortcuts` that binds the key.
  var xfceProperty: String { "/commands/custom/\(key)" }

  /// The command that adds it to Xfce's keyboard shortcuts.
  var xfceCommand: String {
    "xfconf-query -c xfce4-keyboard-shortcuts -p \(Self.shellQuoted(xfceProperty)) -n -t string -s \(Self.shellQuoted(command))"
  }

  /// `text` quoted for a POSIX shell: in single quotes, each `'` as `'\\''`.
  static func shellQuoted(_ text: String) -> String {
    "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
  }
}
