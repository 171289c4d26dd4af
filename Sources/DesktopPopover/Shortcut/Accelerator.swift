import CGtk

/// A key in GTK's accelerator syntax (`<Super><Shift>t`), as GTK reads it:
/// the syntax of GNOME's keybindings. The rest of `translation-host
/// shortcut` (`HostCommandLine`) needs no GTK; this is the part that does.
package struct Accelerator: Equatable, Sendable {
  /// The key normalised by GTK (`<Shift><Super>t` for `<Super><Shift>t`).
  package let name: String
  /// The key as sway's `bindsym` writes it: `Mod4+Shift+t`.
  package let swayName: String

  /// The key as the GlobalShortcuts portal's `preferred_trigger` writes it
  /// (the XDG shortcuts specification): `LOGO+SHIFT+t`.
  package var portalTrigger: String { Self.portalTrigger(swayName: swayName) }

  /// `Mod4+Shift+t` as the portal writes it: `LOGO+SHIFT+t`.
  static func portalTrigger(swayName: String) -> String {
    let names = ["Mod4": "LOGO", "Ctrl": "CTRL", "Mod1": "ALT", "Shift": "SHIFT"]
    let parts = swayName.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
    return (parts.dropLast().map { names[$0] ?? $0 } + parts.suffix(1)).joined(separator: "+")
  }

  /// nil when GTK cannot parse `key`.
  package init?(parsing key: String) {
    var keyval: guint = 0
    var modifiers = GdkModifierType(rawValue: 0)
    guard gtk_accelerator_parse(key, &keyval, &modifiers) != 0, keyval != 0,
      let name = gtk_accelerator_name(keyval, modifiers)
    else { return nil }
    defer { g_free(name) }
    self.name = String(cString: name)
    let names: [(GdkModifierType, String)] = [
      (GDK_SUPER_MASK, "Mod4"), (GDK_CONTROL_MASK, "Ctrl"), (GDK_ALT_MASK, "Mod1"), (GDK_SHIFT_MASK, "Shift"),
    ]
    var parts = names.filter { modifiers.rawValue & $0.0.rawValue != 0 }.map(\.1)
    parts.append(gdk_keyval_name(keyval).map { String(cString: $0) } ?? "")
    swayName = parts.joined(separator: "+")
  }
}
