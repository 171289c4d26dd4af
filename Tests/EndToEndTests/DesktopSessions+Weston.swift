import FoundationEssentials
import TestSupport
import Testing

/// The popover on a Wayland compositor without the layer shell: Weston 10's
/// desktop shell, headless, as GNOME's Mutter is for the popover (a
/// toplevel the compositor places). Weston has no xdg-foreign either (a
/// window cannot be exported there, so no parent can be named) and no
/// virtual keyboard (no keys can be pressed), so what is checked is the
/// window on the screen: the popover's scene drawn, of the popover's own
/// width (nothing added beside or above it: Weston draws no decorations,
/// and the popover has none), with or without a parent window named.
extension DesktopSessions {
  @Suite struct Weston {
    static let reverse = "Reverse (Apple's sample)"

    @Test(arguments: [nil, "wayland:not-exported-by-anyone"])
    func thePopoverIsOneWindowOnTheOutput(_ parent: String?) throws {
      let session = try WestonCompositor()
      let folder = try TemporaryDirectory()
      let empty = folder.path + "/empty.png"
      let shot = folder.path + "/popover.png"
      try session.screenshotOfTheDesktop(to: empty)
      let popover = try session.start(
        [Host.executable, "run", "--desktop", "--provider", "Reverse", "--text", "Hello world"]
          + (parent.map { ["--parent-window", $0] } ?? []))
      defer { popover.stop() }
      // Drawn: the area that changed has stayed the same for a second (the
      // spinner first, then the scene); a window low on the output is cut off.
      var last: RunningCommand.Frame?
      var stable = 0
      let frame = try eventually(
        "the popover to be drawn", timeout: .seconds(60), interval: .milliseconds(200),
        detail: { "\(String(describing: last)); \(popover.stderr)" }
      ) { () throws -> RunningCommand.Frame? in
        try session.screenshot(to: shot)
        guard let now = try WestonCompositor.changedArea(shot, from: empty) else { return nil }
        stable = last.map { $0 == now } == true ? stable + 1 : 0
        last = now
        return stable >= 5 ? now : nil
      }
      // Weston puts a new window at a random place and keeps its top left
      // as it grows: the popover, mapped with its spinner, may reach past the
      // output's bottom, which the screenshot cuts off. Its width is whole.
      #expect(frame.y >= WestonCompositor.panelHeight, "\(frame)")
      #expect(frame.x + frame.width <= WestonCompositor.size.width, "\(frame)")
      // The popover's width limit, as on sway: nothing beside or above it (no title bar, no border).
      #expect(frame.width <= 480, "\(frame)")
      let colours = try Screenshot.colours(in: shot, x: frame.x, y: frame.y, width: frame.width, height: frame.height)
      #expect(colours > 16, "the popover looks empty: \(colours) colours")
      #expect(!popover.hasEnded, "\(popover.stderr)")
    }
  }
}
