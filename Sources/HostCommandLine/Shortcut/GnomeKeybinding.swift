import CGDBus

/// The shortcut as a GNOME custom keybinding: an entry at `path` of the
/// relocatable schema `…media-keys.custom-keybinding` (name, command,
/// binding), listed in `…media-keys custom-keybindings`, as GNOME
/// Settings' Keyboard page writes it. Other keybindings are kept as they are.
enum GnomeKeybinding {
  static let listSchema = "org.gnome.settings-daemon.plugins.media-keys"
  static let entrySchema = "org.gnome.settings-daemon.plugins.media-keys.custom-keybinding"
  static let path = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/translation-host/"

  /// Binds `shortcut`, replacing an earlier binding of this tool.
  static func install(_ shortcut: GlobalShortcut) throws(ShortcutError) {
    let (list, entry) = try settings()
    defer {
      g_object_unref(list)
      g_object_unref(entry)
    }
    g_settings_set_string(entry, "name", "Translate the selection (translation-host)")
    g_settings_set_string(entry, "command", shortcut.command)
    g_settings_set_string(entry, "binding", shortcut.key)
    let paths = strings(list, "custom-keybindings")
    if !paths.contains(path) { set(list, "custom-keybindings", paths + [path]) }
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
    let paths = strings(list, "custom-keybindings")
    for key in ["name", "command", "binding"] { g_settings_reset(entry, key) }
    set(list, "custom-keybindings", paths.filter { $0 != path })
    g_settings_sync()
    return paths.contains(path)
  }

  private static func settings() throws(ShortcutError) -> (
    list: UnsafeMutablePointer<GSettings>, entry: UnsafeMutablePointer<GSettings>
  ) {
    guard let source = g_settings_schema_source_get_default(),
      let list = g_settings_schema_source_lookup(source, listSchema, 1),
      let entry = g_settings_schema_source_lookup(source, entrySchema, 1)
    else { throw .noGnomeSettings }
    g_settings_schema_unref(list)
    g_settings_schema_unref(entry)
    return (g_settings_new(listSchema), g_settings_new_with_path(entrySchema, path))
  }

  static func strings(_ settings: UnsafeMutablePointer<GSettings>, _ key: String) -> [String] {
    guard let values = g_settings_get_strv(settings, key) else { return [] }
    defer { g_strfreev(values) }
    var result: [String] = []
    var index = 0
    while let value = values[index] {
      result.append(String(cString: value))
      index += 1
    }
    return result
  }

  static func set(_ settings: UnsafeMutablePointer<GSettings>, _ key: String, _ values: [String]) {
    let copies = values.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    var pointers: [UnsafePointer<gchar>?] = copies.map { UnsafePointer($0) } + [nil]
    pointers.withUnsafeMutableBufferPointer { _ = g_settings_set_strv(settings, key, $0.baseAddress) }
  }
}
