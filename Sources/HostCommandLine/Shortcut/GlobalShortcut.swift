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
}
