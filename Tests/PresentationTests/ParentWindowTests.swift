import Testing

@testable import Presentation

/// The window a popover is for, as xdg-desktop-portal spells it.
@Suite struct ParentWindowTests {
  @Test(arguments: [
    ("x11:1a00007", ParentWindow.x11(0x1a0_0007)),
    ("x11:FFFFFFFFFFFFFFFF", .x11(UInt64.max)),
    ("wayland:6b3f0c1e-5d2a-4f7e-9c1b-0a8d2e4f6a10", .wayland(handle: "6b3f0c1e-5d2a-4f7e-9c1b-0a8d2e4f6a10")),
    ("wayland:~", .wayland(handle: "~")),
  ])
  func accepted(_ text: String, _ window: ParentWindow) throws {
    let parsed = try #require(ParentWindow(text))
    #expect(parsed == window)
    #expect(ParentWindow(parsed.description) == window)
  }

  @Test(arguments: [
    "", "x11:", "x11:0x1a", "x11:12345678901234567", "x11:-1", "x11:+1a", "wayland:", "wayland:a b", "wayland:é",
    "wayland:a\u{0}b", "wayland:a\nb", "Wayland:abc", "window:1", "1a00007",
    "wayland:" + String(repeating: "a", count: ParentWindow.maximumHandleLength + 1),
  ])
  func refused(_ text: String) {
    #expect(ParentWindow(text) == nil)
  }
}
