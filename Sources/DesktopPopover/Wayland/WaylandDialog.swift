import CGtk
import Presentation

/// The popover as the dialog of the application window it is for, on
/// Wayland compositors without layer shell (GNOME's Mutter) and wherever
/// the caller names its window (`ParentWindow`, D-Bus `Present`'s
/// `parent_window`): the popover's toplevel is given that window as its
/// parent through xdg-foreign (`zxdg_importer`) and made modal, and the
/// compositor places it as that window's dialog: Mutter centres an
/// attached modal dialog over its parent and draws no title bar for it
/// (GNOME's convention; the popover's one title is its own), sway floats it
/// in the middle of the workspace. A client cannot place a toplevel
/// itself, and a window of another application can only be named by a
/// handle that application exported, so without one (a shortcut's
/// selection) the compositor places the popover as any new window.
enum WaylandDialog {
  /// Makes `window` (not shown yet; realized here) the dialog of `parent`.
  /// - Returns: whether the compositor took the parent (false: not Wayland,
  ///   an X11 parent, or no xdg-foreign, as on Weston 10).
  @discardableResult
  static func attach(_ window: GObjectBridge.WidgetPointer, to parent: ParentWindow) -> Bool {
    guard case .wayland(let handle) = parent else { return false }
    if gtk_widget_get_realized(window) == 0 { gtk_widget_realize(window) }
    guard let surface = gtk_native_get_surface(GObjectBridge.cast(window)),
      th_wayland_set_parent_handle(surface, handle) != 0
    else { return false }
    gtk_window_set_modal(GObjectBridge.cast(window), 1)
    return true
  }
}
