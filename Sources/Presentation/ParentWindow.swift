/// The application window a popover is for, as xdg-desktop-portal spells
/// it in its `parent_window` arguments: `x11:<hexadecimal window id>` or
/// `wayland:<handle>`, a handle the application got by exporting its
/// toplevel (`zxdg_exporter_v2`; GTK's `gdk_wayland_toplevel_export_handle`).
/// On Wayland the popover then asks the compositor to make it that
/// window's dialog (`zxdg_importer_v2`), which is how GNOME's Mutter (and
/// KWin, and sway) place a dialog over the window it belongs to, with no
/// title bar of its own on GNOME. Given by D-Bus `Present` and
/// `run --parent-window`.
package enum ParentWindow: Equatable, Sendable, CustomStringConvertible {
  /// An X11 window id.
  case x11(UInt64)
  /// A handle an application exported with xdg-foreign.
  case wayland(handle: String)

  /// The longest handle accepted (GTK's and Mutter's are UUIDs, 36 characters).
  package static let maximumHandleLength = 256

  /// `text` in the portal's spelling, nil when it is not one ("" is not a window).
  package init?(_ text: String) {
    if text.hasPrefix("x11:") {
      let id = text.dropFirst(4)
      guard !id.isEmpty, id.count <= 16, id.allSatisfy(\.isHexDigit), let value = UInt64(id, radix: 16) else { return nil }
      self = .x11(value)
    } else if text.hasPrefix("wayland:") {
      let handle = text.dropFirst(8)
      // Printable ASCII without spaces: a handle goes on the wire as a string, and into messages.
      guard !handle.isEmpty, handle.count <= Self.maximumHandleLength,
        handle.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
      else { return nil }
      self = .wayland(handle: String(handle))
    } else {
      return nil
    }
  }

  /// The portal's spelling.
  package var description: String {
    switch self {
    case .x11(let id): "x11:" + String(id, radix: 16)
    case .wayland(let handle): "wayland:" + handle
    }
  }
}
