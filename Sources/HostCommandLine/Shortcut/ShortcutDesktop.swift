/// A desktop whose global shortcuts `translation-host shortcut` knows how to set.
enum ShortcutDesktop: String, CaseIterable, Sendable {
  /// GNOME: a custom keybinding in GSettings, set here.
  case gnome
  /// Cinnamon: a custom keybinding in its own GSettings, set here.
  case cinnamon
  /// sway: a `bindsym` line for its configuration, printed.
  case sway
  /// i3: the same `bindsym` line for its configuration, printed.
  case i3
  /// Xfce: the `xfconf-query` command that adds the custom shortcut, printed.
  case xfce
  /// KDE Plasma: the steps in System Settings, printed (its global
  /// shortcuts live in kglobalaccel, which has no stable interface to write).
  case kde

  /// The names `--desktop` takes, for messages.
  static let names = allCases.map(\.rawValue).joined(separator: ", ")

  /// The desktop the environment names (`XDG_CURRENT_DESKTOP`, `SWAYSOCK`, `I3SOCK`), if it is one of these.
  static func current(_ environment: [String: String]) -> ShortcutDesktop? {
    let names = (environment["XDG_CURRENT_DESKTOP"] ?? "").lowercased().split(separator: ":")
    if names.contains("x-cinnamon") || names.contains("cinnamon") { return .cinnamon }
    if names.contains("gnome") || names.contains("unity") || names.contains("budgie") { return .gnome }
    if names.contains("kde") { return .kde }
    if names.contains("xfce") { return .xfce }
    if names.contains("sway") || environment["SWAYSOCK"] != nil { return .sway }
    if names.contains("i3") || environment["I3SOCK"] != nil { return .i3 }
    return nil
  }
}
