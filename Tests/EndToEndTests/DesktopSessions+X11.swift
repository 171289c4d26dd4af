import FoundationEssentials
import TestSupport
import Testing

/// `translation-host run` in an X11 session (Xvfb): the popover over a real
/// GTK 4 editor, its placement, Replace with Translation into the editor,
/// dismissal, and providers that fail while it shows. Keys are real key
/// events (XTest), sent only while the popover has the focus.
extension DesktopSessions {
  @Suite struct X11 {
    static let sentence = "The cat is on the table."
    static let apertium = "Apertium (offline)"

    /// A display with the editor on a file holding `sentence`, all of it selected, the pointer at (200, 80).
    private struct Scene {
      let display: X11Server
      let host: Host
      let folder: TemporaryDirectory
      let editor: TextEditor

      init() throws {
        display = try X11Server()
        host = try Host()
        folder = try TemporaryDirectory()
        let file = try folder.write("sentence.txt", DesktopSessions.X11.sentence + "\n")
        editor = try TextEditor(file: file, on: display, home: folder.path + "/editor-home")
        try editor.selectAll(on: display)
        try display.xdotool("mousemove", "200", "80")
      }

      /// Starts `translation-host run` with `arguments` on the display.
      func popover(_ arguments: [String]) throws -> RunningCommand {
        try RunningCommand([Host.executable, "run"] + arguments, environment: display.environment(host.environment))
      }

      /// Waits for `popover`'s window, titled `title`, to show its scene (`RunningCommand.waitForScene`).
      func scene(titled title: String, of popover: RunningCommand) throws -> (window: String, frame: RunningCommand.Frame) {
        let window = try display.window(named: title)
        return (window, try popover.waitForScene(titled: title) { try display.geometry(of: window) })
      }

      /// Presses `key` in the popover `window`, after checking it has the focus:
      /// never into another window.
      func press(_ key: String, in window: String) throws {
        try eventually("the popover to have the focus", timeout: .seconds(10)) {
          (try? display.xdotool("getwindowfocus").trimmingWhitespace()) == window
        }
        try display.xdotool("key", key)
      }
    }

    @Test func replaceWithTranslationReplacesTheSelectionInAnEditor() throws {
      let scene = try Scene()
      let expected = try scene.host.run("translate", "--provider", "Apertium", "--from", "en", "--to", "es", Self.sentence)
      #expect(expected.exitCode == 0)
      let translation = expected.stdout.trimmingWhitespace()
      try scene.display.setClipboard("what the person copied")
      try scene.editor.selectAll(on: scene.display)
      let popover = try scene.popover(["--selection", "--replace", "--provider", "Apertium", "--from", "en", "--to", "es"])
      let (window, frame) = try scene.scene(titled: Self.apertium, of: popover)

      // Below the pointer, its arrow at the top pointing up at it, narrow, its widgets drawn.
      #expect(frame.y == 80)
      #expect(frame.x <= 200 && 200 < frame.x + frame.width)
      #expect(frame.width <= 480)
      let shot = scene.folder.path + "/popover.png"
      try scene.display.screenshot(to: shot)
      let colours = try Screenshot.colours(in: shot, x: frame.x, y: frame.y + 12, width: frame.width, height: frame.height - 12)
      #expect(colours > 16, "the popover looks empty: \(colours) colours")

      try scene.press("Return", in: window)
      let outcome = try popover.waitForExit()
      #expect(outcome.exitCode == 0, "\(outcome.stderr)")
      #expect(outcome.stdout == translation)
      try scene.editor.save(on: scene.display)
      try eventually("the editor to save the translation", timeout: .seconds(30)) {
        scene.editor.contents == translation + "\n"
      }
      // The paste went through the clipboard, whose text is then put back.
      try eventually("the clipboard's text to be put back", timeout: .seconds(10)) {
        try scene.display.clipboard() == "what the person copied"
      }
    }

    @Test func escapeLeavesTheTextAndTheClipboardAsTheyWere() throws {
      let scene = try Scene()
      try scene.display.setClipboard("what the person copied")
      try scene.editor.selectAll(on: scene.display)
      let popover = try scene.popover(["--selection", "--replace", "--provider", "Apertium", "--from", "en", "--to", "es"])
      let (window, _) = try scene.scene(titled: Self.apertium, of: popover)
      try scene.press("Escape", in: window)
      let outcome = try popover.waitForExit()
      #expect(outcome.exitCode == 2)
      #expect(outcome.stdout == "")
      #expect(!scene.display.hasWindow(named: Self.apertium))
      #expect(try scene.display.clipboard() == "what the person copied")
      try scene.editor.save(on: scene.display)
      #expect(scene.editor.contents == Self.sentence + "\n")
    }

    /// Apple's sample enables Replace before anything was translated: a
    /// person who presses it first gets an empty replacement, which the
    /// popover never pastes; it says so, and the text stays as it was.
    @Test func anEmptyReplacementLeavesTheTextAsItWas() throws {
      let scene = try Scene()
      let popover = try scene.popover(["--selection", "--replace", "--provider", "Reverse", "--from", "en"])
      let (window, _) = try scene.scene(titled: "Reverse (Apple's sample)", of: popover)
      // Translate has the focus; Tab moves it to Replace with Translation.
      try scene.press("Tab", in: window)
      try scene.press("Return", in: window)
      let outcome = try popover.waitForExit()
      #expect(outcome.exitCode == 70, "\(outcome.stderr)")
      #expect(
        outcome.stderr.contains(
          "provider 'org.translationhost.reverse' returned an empty replacement for a text that was not empty; nothing replaced"
        ), "\(outcome.stderr)")
      #expect(outcome.stdout == "")
      try scene.editor.save(on: scene.display)
      #expect(scene.editor.contents == Self.sentence + "\n")
    }

    @Test(arguments: [
      ("CRASH_IN_PERFORM", [String](), Int32(70), "was killed by SIGSEGV"),
      ("HANG_IN_ACTION", ["--timeout", "1"], Int32(75), "did not answer within 1 s"),
    ])
    func aProviderFailingInThePopoverClosesItWithTheError(
      mode: String, options: [String], exitCode: Int32, message: String
    ) throws {
      let scene = try Scene()
      try scene.display.setClipboard("what the person copied")
      try scene.editor.selectAll(on: scene.display)
      let library = try CFixture.compile(ContainmentTests.source, defines: [mode], name: "libHostile", in: scene.folder)
      let bundle = try BundleFixture(name: "Hostile", identifier: "org.example.hostile.desktop").write(
        name: "Hostile", in: scene.folder, library: library)
      let popover = try scene.popover(["--selection", "--replace", "--provider", bundle, "--from", "en"] + options)
      let window = try scene.display.window(named: "Hostile")
      // Its one button, "Go", has the focus once the scene shows; Return
      // before that does nothing, so it is pressed until the popover ends.
      try eventually("a press of Go to end the popover", interval: .seconds(2)) {
        if popover.hasEnded { return true }
        try scene.press("Return", in: window)
        return false
      }
      let outcome = try popover.waitForExit()
      #expect(outcome.exitCode == exitCode)
      #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
      #expect(outcome.stdout == "")
      #expect(!scene.display.hasWindow(named: "Hostile"))
      #expect(try scene.display.clipboard() == "what the person copied")
      try scene.editor.save(on: scene.display)
      #expect(scene.editor.contents == Self.sentence + "\n")
    }
    /// An app's `translationPresentation` in a graphical session: the same
    /// window, and the replacement handed to the app (Examples/ReplaceSelection).
    @Test func theLibrarysPresentationIsTheDesktopPopover() throws {
      let display = try X11Server()
      let host = try Host()
      #expect(try host.run("set-default", "Reverse").exitCode == 0)
      let example = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/ReplaceSelection"
      try #require(FileManager.default.isExecutableFile(atPath: example), "\(example) is not built")
      // An app finds the installation through the translation-host on its PATH.
      var environment = display.environment(host.environment)
      environment["PATH"] = Host.buildDirectory + "/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
      let app = try RunningCommand([example, "Hello, world"], environment: environment)
      let window = try display.window(named: "Reverse (Apple's sample)")
      try eventually("the scene to be drawn", interval: .milliseconds(100), detail: { app.stderr }) {
        try display.geometry(of: window).height > 150
      }
      try display.xdotool("windowfocus", "--sync", window)
      try display.xdotool("key", "Return", "Tab", "Return")
      let outcome = try app.waitForExit()
      #expect(outcome.exitCode == 0, "\(outcome.stderr)")
      #expect(outcome.stdout == "dlrow ,olleH\n")
    }
  }
}
