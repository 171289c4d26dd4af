import FoundationEssentials
import TestSupport
import Testing

/// `translation-host run` in a Wayland session (sway, headless): the
/// popover drawn, its keys, the selection read, a replacement typed into
/// the editor it came from (sway IPC and the virtual keyboard), or left on
/// the clipboard with a note where no window had the focus.
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
      // The GTK window, as on compositors without the layer shell (DesktopSessions.LayerShell tests that).
      let popover = try session.start([
        "/usr/bin/env", "TRANSLATION_HOST_LAYER_SHELL=0", Host.executable, "run", "--desktop", "--provider", "Reverse",
        "--replace", "--text", "Hello world",
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

    /// On sway, Replace types the translation into the window the text was
    /// selected in, through the virtual keyboard, once sway says that window
    /// has the focus again: no clipboard, no note.
    @Test func replaceTypesTheTranslationIntoTheEditorOnSway() throws {
      let session = try WaylandCompositor()
      let file = session.runtime + "/home/sentence.txt"
      try session.run("/bin/sh", "-c", "printf 'Hello world\\n' > \"$1\"", "sh", file)
      let editor = try session.start(["/usr/bin/gnome-text-editor", "--standalone", file])
      try eventually("the editor's window", timeout: .seconds(60), interval: .milliseconds(200), detail: { editor.stderr }) {
        try session.hasWindow(titledLike: "sentence.txt")
      }
      try eventually("the editor's selection to be the PRIMARY selection", timeout: .seconds(30), interval: .milliseconds(500)) {
        try session.chord("ctrl", "a")
        return try session.primarySelection() == "Hello world"
      }
      let popover = try session.start([Host.executable, "run", "--selection", "--replace", "--provider", "Reverse"])
      _ = try scene(titled: Self.reverse, of: popover, on: session)
      try session.press("Return", "Tab", "Return")
      let outcome = try popover.waitForExit()
      #expect(outcome.exitCode == 0, "\(outcome.stderr)")
      #expect(outcome.stdout == "dlrow olleH")
      #expect(!outcome.stderr.contains("Ctrl+V"), "\(outcome.stderr)")
      try eventually("the editor to hold the translation", timeout: .seconds(30), interval: .milliseconds(500)) {
        try session.chord("ctrl", "s")
        return (try? String(contentsOfFile: file, encoding: .utf8)) == "dlrow olleH\n"
      }
    }

    @Test func escapeDismisses() throws {
      let session = try WaylandCompositor()
      // The GTK window, as on compositors without the layer shell (DesktopSessions.LayerShell tests that).
      let popover = try session.start([
        "/usr/bin/env", "TRANSLATION_HOST_LAYER_SHELL=0", Host.executable, "run", "--desktop", "--provider", "Reverse",
        "--replace", "--text", "Hello world",
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
