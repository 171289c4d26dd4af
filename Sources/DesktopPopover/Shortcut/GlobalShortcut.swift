import CGtk

/// The key that runs `translation-host run --selection --replace` from any
/// application, as iOS's Translate item appears over any selection.
package struct GlobalShortcut: Equatable, Sendable {
  /// Super+Shift+T: free in GNOME, KDE and sway's default configurations.
  package static let defaultKey = "<Super><Shift>t"

  /// The key in GTK's accelerator syntax, normalised (`<Shift><Super>t`).
  package let key: String
  /// The command line it runs.
  package let command: String

  /// - Throws: `ShortcutError.invalidKey` when GTK cannot parse `key`.
  package init(key: String, command: String) throws(ShortcutError) {
    var keyval: guint = 0
    var modifiers = GdkModifierType(rawValue: 0)
    guard gtk_accelerator_parse(key, &keyval, &modifiers) != 0, keyval != 0,
      let name = gtk_accelerator_name(keyval, modifiers)
    else { throw .invalidKey(key) }
    defer { g_free(name) }
    self.key = String(cString: name)
    self.command = command
    self.keyval = keyval
    self.modifiers = modifiers.rawValue
  }

  private let keyval: guint
  private let modifiers: UInt32

  /// The key as sway's `bindsym` writes it: `Mod4+Shift+t`.
  package var swayKey: String {
    let names: [(GdkModifierType, String)] = [
      (GDK_SUPER_MASK, "Mod4"), (GDK_CONTROL_MASK, "Ctrl"), (GDK_ALT_MASK, "Mod1"), (GDK_SHIFT_MASK, "Shift"),
    ]
    var parts = names.filter { modifiers & $0.0.rawValue != 0 }.map(\.1)
    parts.append(gdk_keyval_name(keyval).map { String(cString: $0) } ?? "")
    return parts.joined(separator: "+")
  }

  /// The line of sway's configuration that binds it.
  package var swayBinding: String { "bindsym \(swayKey) exec \(command)" }
}
