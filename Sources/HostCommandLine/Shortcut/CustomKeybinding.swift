import CGDBus

/// The shortcut as a custom keybinding in GSettings, as GNOME Settings' and
/// Cinnamon's Keyboard pages write one: an entry at `path` of a relocatable
/// schema (name, command, binding), listed in a key of the list schema.
/// Other keybindings are kept as they are.
struct CustomKeybinding {
  /// Where GNOME keeps it: the entry's path is what its list holds.
  static let gnome: CustomKeybinding = {
    let path = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/translation-host/"
    return CustomKeybinding(
      listSchema: "org.gnome.settings-daemon.plugins.media-keys", listKey: "custom-keybindings",
      entrySchema: "org.gnome.settings-daemon.plugins.media-keys.custom-keybinding", path: path, listed: path,
      bindingIsList: false, missing: .noGnomeSettings)
  }()

  /// Where Cinnamon keeps it: the list holds the entry's name, and the
  /// binding is a list of keys.
  static let cinnamon = CustomKeybinding(
    listSchema: "org.cinnamon.desktop.keybindings", listKey: "custom-list",
    entrySchema: "org.cinnamon.desktop.keybindings.custom-keybinding",
    path: "/org/cinnamon/desktop/keybindings/custom-keybindings/customTranslationHost/",
    listed: "customTranslationHost", bindingIsList: true, missing: .noCinnamonSettings)

  let listSchema: String
  let listKey: String
  let entrySchema: String
  /// The entry's settings path.
  let path: String
  /// What the list names the entry by.
  let listed: String
  let bindingIsList: Bool
  /// The error when the desktop's schemas are not installed.
  let missing: ShortcutError

  /// Binds `shortcut`, replacing an earlier binding of this tool.
  func install(_ shortcut: GlobalShortcut) throws(ShortcutError) {
    let (list, entry) = try settings()
    defer {
      g_object_unref(list)
      g_object_unref(entry)
    }
    g_settings_set_string(entry, "name", "Translate the selection (translation-host)")
    g_settings_set_string(entry, "command", shortcut.command)
    if bindingIsList {
      Self.set(entry, "binding", [shortcut.key])
    } else {
      g_settings_set_string(entry, "binding", shortcut.key)
    }
    let names = Self.strings(list, listKey)
    if !names.contains(listed) { Self.set(list, listKey, names + [listed]) }
    g_settings_sync()
  }

  /// Removes the binding; does nothing when there is none.
  /// - Returns: whether there was one.
  @discardableResult
  func remove() throws(ShortcutError) -> Bool {
    let (list, entry) = try settings()
    defer {
      g_object_unref(list)
      g_object_unref(entry)
    }
    let names = Self.strings(list, listKey)
    for key in ["name", "command", "binding"] { g_settings_reset(entry, key) }
    Self.set(list, listKey, names.filter { $0 != listed })
    g_settings_sync()
    return names.contains(listed)
  }

  private func settings() throws(ShortcutError) -> (
    list: UnsafeMutablePointer<GSettings>, entry: UnsafeMutablePointer<GSettings>
  ) {
    guard let source = g_settings_schema_source_get_default(),
      let list = g_settings_schema_source_lookup(source, listSchema, 1),
      let entry = g_settings_schema_source_lookup(source, entrySchema, 1)
    else { throw missing }
    g_settings_schema_unref(list)
    g_settings_schema_unref(entry)
    return (g_settings_new(listSchema), g_settings_new_with_path(entrySchema, path))
  }

  private static func strings(_ settings: UnsafeMutablePointer<GSettings>, _ key: String) -> [String] {
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

  private static func set(_ settings: UnsafeMutablePointer<GSettings>, _ key: String, _ values: [String]) {
    let copies = values.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    var pointers: [UnsafePointer<gchar>?] = copies.map { UnsafePointer($0) } + [nil]
    pointers.withUnsafeMutableBufferPointer { _ = g_settings_set_strv(settings, key, $0.baseAddress) }
  }
}
