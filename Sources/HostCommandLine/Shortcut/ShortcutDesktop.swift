/// A desktop whose global shortcuts `translation-host shortcut` knows how to set.
enum ShortcutDesktop: String, CaseIterable, Sendable {
  /// GNOME: a custom keybinding in GSettings, set here.
  case gnome
  /// sway: a `bindsym` line for its configuration, printed.
  case sway
  /// KDE Plasma: the steps in System Settings, printed (its global
  /// shortcuts live in kglobalaccel, which has no stable interface to write).
  case kde

  /// The desktop the environment names (`XDG_CURRENT_DESKTOP`, `SWAYSOCK`), if it is one of these.
  static func current(_ environment: [String: String]) -> ShortcutDesktop? {
    let names = (environment["XDG_CURRENT_DESKTOP"] ?? "").lowercased().split(separator: ":")
    if names.contains("gnome") || names.contains("unity") || names.contains("budgie") { return .gnome }
    if names.contains("kde") { return .kde }
    if names.contains("sway") || environment["SWAYSOCK"] != nil { return .sway }
    return nil
  }
}
