/// The graphical session a desktop popover would be shown in, as the
/// environment names it. Read without GTK, so that `translation-host` can
/// choose its popover before deciding whether to load GTK at all.
package enum GraphicalSession {
  /// Whether there is a graphical session to show a window in:
  /// `WAYLAND_DISPLAY` or `DISPLAY` is set and not empty.
  package static func isAvailable(environment: [String: String]) -> Bool {
    !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty || !(environment["DISPLAY"] ?? "").isEmpty
  }
}
