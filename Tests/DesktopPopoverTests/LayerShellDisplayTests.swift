import Testing

@testable import DesktopPopover

/// When the popover is no layer surface, and says why: the GTK window is
/// shown instead. (On a compositor with the layer shell, the sway tests of
/// `DesktopSessions.LayerShell` show it is one.)
@Suite struct LayerShellDisplayTests {
  @Test(arguments: [
    ([:], "WAYLAND_DISPLAY is not set"),
    (["WAYLAND_DISPLAY": ""], "WAYLAND_DISPLAY is not set"),
    (["WAYLAND_DISPLAY": "wayland-0", "GDK_BACKEND": "x11"], "GDK_BACKEND is 'x11'"),
    (["WAYLAND_DISPLAY": "wayland-0", "TRANSLATION_HOST_LAYER_SHELL": "0"], "TRANSLATION_HOST_LAYER_SHELL is 0"),
    (
      ["WAYLAND_DISPLAY": "/nonexistent/translation-host-test/wayland-9"],
      "cannot connect to the Wayland display '/nonexistent/translation-host-test/wayland-9'"
    ),
  ])
  func noLayerSurfaceWithout(_ environment: [String: String], reason: String) {
    var whyNot = ""
    #expect(LayerShellDisplay(environment: environment, whyNot: &whyNot) == nil)
    #expect(whyNot.hasPrefix(reason), "\(whyNot)")
  }
}
