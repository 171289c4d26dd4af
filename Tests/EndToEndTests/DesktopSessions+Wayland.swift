import FoundationEssentials
import Glibc
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

    /// On sway, Replace types the translation over the selection in the
    /// window the text was selected in, through our virtual keyboard
    /// (keymaps made for the text: accents, ñ, ¿), once sway says that
    /// window has the focus again: no clipboard, no note. The editor runs
    /// without accessibility (`NO_AT_BRIDGE`, `GTK_A11Y=none`), so AT-SPI
    /// cannot be what replaced it.
    @Test(arguments: [("Hello world", "dlrow olleH"), ("¿Qué año, señor?", "?roñes ,oña éuQ¿")])
    func replaceTypesTheTranslationIntoTheEditorOnSway(_ text: String, _ translation: String) throws {
      let session = try WaylandCompositor()
      let (file, editor) = try openEditor(on: session, named: "sentence.txt", holding: text)
      defer { editor.stop() }
      try selectAll(text, on: session)
      let popover = try session.start([Host.executable, "run", "--selection", "--replace", "--provider", "Reverse"])
      _ = try scene(titled: Self.reverse, of: popover, on: session)
      try session.press("Return", "Tab", "Return")
      let outcome = try popover.waitForExit()
      #expect(outcome.exitCode == 0, "\(outcome.stderr)")
      #expect(outcome.stdout == translation)
      #expect(!outcome.stderr.contains("Ctrl+V"), "\(outcome.stderr)")
      try eventually("the editor to hold the translation", timeout: .seconds(30), interval: .milliseconds(500)) {
        try session.chord("ctrl", "s")
        return (try? String(contentsOfFile: file, encoding: .utf8)) == translation + "\n"
      }
    }

    /// When another window has the focus once the popover is gone, nothing
    /// is typed (it would land in the wrong window): the translation is on
    /// the clipboard, and the note says why.
    @Test func replaceTypesNothingWhenAnotherWindowHasTheFocus() throws {
      let session = try WaylandCompositor()
      let (other, otherEditor) = try openEditor(on: session, named: "other.txt", holding: "Other text")
      defer { otherEditor.stop() }
      let (file, editor) = try openEditor(on: session, named: "sentence.txt", holding: "Hello world")
      defer { editor.stop() }
      try selectAll("Hello world", on: session)
      let popover = try session.start([Host.executable, "run", "--selection", "--replace", "--provider", "Reverse"])
      _ = try scene(titled: Self.reverse, of: popover, on: session)
      // The other editor takes the focus, then the popover; closed, the popover hands it back to the other editor.
      try session.focus(titledLike: "other\\.txt")
      try session.focus(titledLike: "Reverse")
      try session.press("Return", "Tab", "Return")
      let outcome = try popover.waitForExit()
      #expect(outcome.exitCode == 0, "\(outcome.stderr)")
      #expect(outcome.stdout == "dlrow olleH")
      #expect(outcome.stderr.contains("no longer has the keyboard focus"), "\(outcome.stderr)")
      #expect(outcome.stderr.contains("press Ctrl+V"), "\(outcome.stderr)")
      try eventually("the translation on the clipboard", timeout: .seconds(10)) { try session.clipboard() == "dlrow olleH" }
      // Saved, the focused editor still holds its own text, and the first one was not touched.
      #expect(try session.focusedWindowTitle()?.hasPrefix("other.txt") == true)
      try session.chord("ctrl", "s")
      usleep(1_000_000)
      #expect(try String(contentsOfFile: other, encoding: .utf8) == "Other text\n")
      #expect(try String(contentsOfFile: file, encoding: .utf8) == "Hello world\n")
    }

    /// Given the window it is for (D-Bus `Present`'s `parent_window`, here
    /// `run --parent-window`, from a window that exported itself with
    /// xdg-foreign), the popover asks the compositor to make it that
    /// window's dialog (`zxdg_imported_v1.set_parent_of`, in its Wayland
    /// log), and the compositor takes the handle (no `destroyed` event).
    /// Without one it asks nothing. sway floats the popover over the window
    /// either way (a window of a fixed size floats there); Mutter would
    /// centre the dialog on its parent. The GTK window, as on compositors
    /// without the layer shell (where there is one, the popover is a layer
    /// surface at its anchor and needs no parent).
    @Test(arguments: [true, false])
    func thePopoverIsTheDialogOfTheWindowItIsFor(_ named: Bool) throws {
      let session = try WaylandCompositor()
      let parent = try session.start([
        "/usr/bin/python3", WaylandCompositor.fixture("exporting_window.py"), "Parent window",
      ])
      defer { parent.stop() }
      let handle = try eventually("the window's exported handle", timeout: .seconds(60), detail: { parent.stderr }) {
        parent.stdout.split(separator: "\n").first.map(String.init)
      }
      let popover = try session.start(
        [
          // The GTK window (a dialog where the compositor has no layer shell), not sway's layer surface.
          "/usr/bin/env", "WAYLAND_DEBUG=1", "TRANSLATION_HOST_LAYER_SHELL=0", Host.executable, "run", "--desktop",
          "--provider", "Reverse", "--text", "Hello world",
        ]
          + (named ? ["--parent-window", handle] : []))
      let frame = try scene(titled: Self.reverse, of: popover, on: session)
      let log = popover.stderr
      #expect(log.contains(".set_parent_of(") == named)
      let refused = log.split(separator: "\n").contains { $0.contains("zxdg_imported_v1@") && $0.contains(".destroyed(") }
      #expect(!refused, "the compositor refused the handle")
      #expect(try session.isFloating(windowTitled: Self.reverse))
      let parentFrame = try #require(try session.frame(ofWindowTitled: "Parent window"))
      let over =
        frame.x >= parentFrame.x && frame.x + frame.width <= parentFrame.x + parentFrame.width
        && frame.y >= parentFrame.y && frame.y + frame.height <= parentFrame.y + parentFrame.height
      #expect(over, "popover \(frame), window \(parentFrame)")
      // Esc goes where the focus is: sway gives it to the new dialog a moment after it maps (later under load).
      try eventually("the popover to have the focus", timeout: .seconds(45)) {
        try session.focusedWindowTitle() == Self.reverse
      }
      try session.press("Escape")
      #expect(try popover.waitForExit().exitCode == 2)
    }

    /// Starts gnome-text-editor on a new file `name` holding `text` and a line break, and waits for its window.
    /// - Returns: the file's path, and the editor.
    private func openEditor(
      on session: WaylandCompositor, named name: String, holding text: String
    ) throws -> (String, RunningCommand) {
      let file = session.runtime + "/home/" + name
      try session.run("/bin/sh", "-c", "printf '%s\\n' \"$2\" > \"$1\"", "sh", file, text)
      // No accessibility: the session has no bus for AT-SPI, and GTK is told to export nothing.
      let editor = try session.start(["/usr/bin/env", "GTK_A11Y=none", "/usr/bin/gnome-text-editor", "--standalone", file])
      try eventually("the editor's window", timeout: .seconds(60), interval: .milliseconds(200), detail: { editor.stderr }) {
        try session.hasWindow(titledLike: name)
      }
      return (file, editor)
    }

    /// Selects all of the focused editor's text, until it is `text` in the PRIMARY selection.
    private func selectAll(_ text: String, on session: WaylandCompositor) throws {
      try eventually("the editor's selection to be the PRIMARY selection", timeout: .seconds(30), interval: .milliseconds(500)) {
        try session.chord("ctrl", "a")
        return try session.primarySelection() == text
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
