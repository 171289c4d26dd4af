import CGDBus

/// The shortcut as a Cinnamon custom keybinding, as Cinnamon's Keyboard
/// settings write it: an entry named `customTranslationHost` at `path`, of
/// the relocatable schema `org.cinnamon.desktop.keybindings.custom-keybinding`
/// (name, command, and its bindings as a list), listed in
/// `org.cinnamon.desktop.keybindings custom-list`. Other keybindings stay.
enum CinnamonKeybinding {
  static let listSchema = "org.cinnamon.desktop.keybindings"
  static let entrySchema = "org.cinnamon.desktop.keybindings.custom-keybinding"
  static let name = "customTranslationHost"
  static let path = "/org/cinnamon/desktop/keybindings/custom-keybindings/\(name)/"

  /// Binds `shortcut`, replacing an earlier binding of this tool.
  static func install(_ shortcut: GlobalShortcut) throws(ShortcutError) {
    let (list, entry) = try settings()
    defer {
      g_object_unref(list)
      g_object_unref(entry)
    }
    g_settings_set_string(entry, "name", "Translate the selection (translation-host)")
    g_settings_set_string(entry, "command", shortcut.command)
    GnomeKeybinding.set(entry, "binding", [shortcut.key])
    let names = GnomeKeybinding.strings(list, "custom-list")
    if !names.contains(name) { GnomeKeybinding.set(list, "custom-list", names + [name]) }
    g_settings_sync()
  }

  /// Removes the binding; does nothing when there is none.
  /// - Returns: whether there was one.
  @discardableResult
  static func remove() throws(ShortcutError) -> Bool {
    let (list, entry) = try settings()
    defer {
      g_object_unref(list)
      g_object_unref(entry)
    }
    let names = GnomeKeybinding.strings(list, "custom-list")
    for key in ["name", "command", "binding"] { g_settings_reset(entry, key) }
    GnomeKeybinding.set(list, "custom-list", names.filter { $0 != name })
    g_settings_sync()
    return names.contains(name)
  }

  private static func settings() throws(ShortcutError) -> (
    list: UnsafeMutablePointer<GSettings>, entry: UnsafeMutablePointer<GSettings>
  ) {
    guard let source = g_settings_schema_source_get_default(),
      let list = g_settings_schema_source_lookup(source, listSchema, 1),
      let entry = g_settings_schema_source_lookup(source, entrySchema, 1)
    else { throw .noCinnamonSettings }
    g_settings_schema_unref(list)
    g_settings_schema_unref(entry)
    return (g_settings_new(listSchema), g_settings_new_with_path(entrySchema, path))
  }
}
