import FoundationEssentials
import TestSupport
import Testing

/// `translation-host run` in a Wayland session (sway, headless): the
/// popover drawn, its keys, the selection read, and a replacement left on
/// the clipboard with a note, since no key can be sent into the window the
/// text came from with certainty there.
extension DesktopSessions {
  @Suite struct Wayland {
    static let reverse = "Reverse (Apple's sample)"

    /// Waits for `popover`'s window, titled `title`, to show its scene (`RunningCommand.waitForScene`).
    private func scene(
      titled title: String, of popover: RunningCommand, on session: WaylandCompositor
    ) throws -> RunningCommand.Frame {
      try popover.waitForScene(titled: title) { try session.frame(ofWindowTitled: title) }
    }

    @Test func theSceneIsDrawnAndAnswersKeys() throws {
      let session = try WaylandCompositor()
      let popover = try session.start([
        Host.executable, "run", "--desktop", "--provider", "Reverse", "--replace", "--text", "Hello world",
      ])
      let frame = try scene(titled: Self.reverse, of: popover, on: session)
      #expect(frame.width <= 480)
      let folder = try TemporaryDirectory()
      try session.screenshot(to: folder.path + "/popover.png")
      let colours = try Screenshot.colours(
        in: folder.path + "/popover.png", x: frame.x, y: frame.y, width: frame.width, height: frame.height)
      #expect(colours > 16, "the popover looks empty: \(colours) colours")
      // Translate has the focus; Tab moves it to Replace With Translation.
      try session.press("Return", "Tab", "Return")
      let outcome = try popover.waitForExit()
      #expect(outcome.exitCode == 0, "\(outcome.stderr)")
      #expect(outcome.stdout == "dlrow olleH")
    }

    @Test func theSelectionIsTranslatedAndTheReplacementLeftOnTheClipboard() throws {
      let session = try WaylandCompositor()
      try session.select("Hello world")
      let popover = try session.start([Host.executable, "run", "--selection", "--replace", "--provider", "Reverse"])
      _ = try scene(titled: Self.reverse, of: popover, on: session)
      try session.press("Return", "Tab", "Return")
      let outcome = try popover.waitForExit()
      #expect(outcome.exitCode == 0, "\(outcome.stderr)")
      #expect(outcome.stdout == "dlrow olleH")
      #expect(outcome.stderr.contains("press Ctrl+V"))
      try eventually("the translation on the clipboard", timeout: .seconds(10)) { try session.clipboard() == "dlrow olleH" }
    }

    @Test func escapeDismisses() throws {
      let session = try WaylandCompositor()
      let popover = try session.start([
        Host.executable, "run", "--desktop", "--provider", "Reverse", "--replace", "--text", "Hello world",
      ])
      _ = try scene(titled: Self.reverse, of: popover, on: session)
      try session.press("Escape")
      let outcome = try popover.waitForExit()
      #expect(outcome.exitCode == 2)
      #expect(outcome.stdout == "")
      #expect(try session.frame(ofWindowTitled: Self.reverse) == nil)
    }
  }
}
