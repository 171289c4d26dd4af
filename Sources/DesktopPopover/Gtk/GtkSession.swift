import CGtk
import System

/// GTK, initialised once per process, with the popover's style sheet and
/// the desktop's light or dark preference.
enum GtkSession {
  private nonisolated(unsafe) static var display: OpaquePointer?

  static let styleSheet = """
    window.translation-popover { background: none; }
    .popover-body { padding: 12px 14px; }
    .popover-title { font-weight: bold; }
    .th-font-largeTitle { font-size: 1.7em; } .th-font-title { font-size: 1.5em; }
    .th-font-title2 { font-size: 1.3em; } .th-font-title3 { font-size: 1.15em; }
    .th-font-headline { font-weight: bold; } .th-font-subheadline { font-size: 0.95em; }
    .th-font-callout { font-size: 0.95em; } .th-font-footnote { font-size: 0.85em; }
    .th-font-caption { font-size: 0.8em; } .th-font-caption2 { font-size: 0.75em; }
    .th-bold { font-weight: bold; } .th-italic { font-style: italic; }
    .th-color-red { color: #c01c28; } .th-color-orange { color: #c64600; } .th-color-yellow { color: #9c6e03; }
    .th-color-green { color: #26a269; } .th-color-mint { color: #2ec27e; } .th-color-teal { color: #2190a4; }
    .th-color-cyan { color: #1c71d8; } .th-color-blue { color: #1a5fb4; } .th-color-indigo { color: #613583; }
    .th-color-purple { color: #813d9c; } .th-color-pink { color: #c061cb; } .th-color-brown { color: #865e3c; }
    .th-color-gray { color: #77767b; } .th-color-accentColor { color: @theme_selected_bg_color; }
    """

  /// The popover's program name, its X11 `WM_CLASS` instance (the class is `Translation-host`).
  static let programName = "translation-host"

  /// The default display, opened on first use.
  /// - Throws: `DesktopPopoverError.noDisplay` when GTK cannot open it.
  static func open(environment: [String: String]) throws(DesktopPopoverError) -> OpaquePointer {
    if let display { return display }
    // A popover is a few labels and buttons: GTK's cairo renderer draws it
    // at once, where creating a GL context first costs more than the frame
    // (under Xvfb, 170–250 ms to map against 460 ms and more). GDK would
    // still set GL up when it opens the display (to choose the X11 visual),
    // some 100 ms of Mesa's start-up for nothing: not with the cairo
    // renderer. A renderer the person chose (GSK_RENDERER), and GDK_DEBUG
    // when set, are kept.
    if Syscalls.environmentVariable("GSK_RENDERER") == nil {
      Syscalls.setEnvironmentVariableIfUnset("GSK_RENDERER", to: "cairo")
      Syscalls.setEnvironmentVariableIfUnset("GDK_DEBUG", to: "gl-disable")
    }
    // WM_CLASS (and the Wayland app id) come from the program's name: window
    // managers' rules and the test of a screenshot find the popover by it.
    if g_get_prgname() == nil || String(cString: g_get_prgname()).hasPrefix("translation-host") {
      g_set_prgname(programName)
    }
    guard gtk_init_check() != 0, let opened = gdk_display_get_default() else {
      throw .noDisplay(environment["WAYLAND_DISPLAY"] ?? environment["DISPLAY"] ?? "")
    }
    let provider = gtk_css_provider_new()
    gtk_css_provider_load_from_data(provider, styleSheet, -1)
    gtk_style_context_add_provider_for_display(
      opened, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    th_settings_set_boolean("gtk-application-prefer-dark-theme", prefersDark(environment) ? 1 : 0)
    // A field that selected its text on focus would take the PRIMARY
    // selection, and the application the text came from would drop its
    // selection: the paste would then insert instead of replace.
    th_settings_set_boolean("gtk-entry-select-on-focus", 0)
    display = opened
    return opened
  }

  /// Whether the desktop asks for a dark style: GNOME's `color-scheme`
  /// setting when its schema is installed, else a `GTK_THEME` ending in `:dark`.
  static func prefersDark(_ environment: [String: String]) -> Bool {
    if environment["GTK_THEME"]?.hasSuffix(":dark") == true { return true }
    guard let source = g_settings_schema_source_get_default(),
      let schema = g_settings_schema_source_lookup(source, "org.gnome.desktop.interface", 1)
    else { return false }
    defer { g_settings_schema_unref(schema) }
    guard g_settings_schema_has_key(schema, "color-scheme") != 0 else { return false }
    let settings = g_settings_new("org.gnome.desktop.interface")
    defer { g_object_unref(settings) }
    guard let value = g_settings_get_string(settings, "color-scheme") else { return false }
    defer { g_free(value) }
    return String(cString: value) == "prefer-dark"
  }
}
