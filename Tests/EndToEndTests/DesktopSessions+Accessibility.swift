import FoundationEssentials
import Glibc
import TestSupport
import Testing

/// `run --selection --replace` over real applications of three toolkits
/// and a terminal, under a window manager, with the accessibility bus: the
/// text comes from the focused field and the translation goes exactly over
/// it (AT-SPI, no clipboard), or is pasted into the terminal it came from;
/// text selected in another window is never overwritten; the clipboard,
/// every format of it, comes back as it was.
extension DesktopSessions {
  @Suite struct Accessibility {
    static let lines = ["The cat is on the table.", "The dog is in the garden."]
    static let apertium = "Apertium (offline)"

    /// An editor of a toolkit: how it is started on a file and how its window is named.
    struct Editor: Sendable, CustomTestStringConvertible {
      var name: String
      /// Its name on the accessibility bus.
      var accessibleName: String
      var arguments: @Sendable (String) -> [String]
      /// A regular expression matching its window's name for the file.
      var window: @Sendable (String) -> String
      var testDescription: String { name }
    }

    static let editors = [
      Editor(
        name: "Mousepad (GTK 3)", accessibleName: "mousepad", arguments: { ["/usr/bin/mousepad", $0] },
        window: { "^" + X11Server.escaped($0) + " - Mousepad$" }),
      Editor(
        name: "FeatherPad (Qt 5)", accessibleName: "FeatherPad", arguments: { ["/usr/bin/featherpad", $0] },
        window: { "^" + X11Server.escaped($0) + "$" }),
      Editor(
        name: "GNOME Text Editor (GTK 4)", accessibleName: "gnome-text-editor",
        arguments: { ["/usr/bin/gnome-text-editor", "--standalone", $0] },
        window: { "^" + X11Server.escaped(String($0.split(separator: "/").last!)) + " " }),
    ]

    /// The translation `translate` gives for `text`, which the popover's Replace must put in.
    static func translation(of text: String, host: Host) throws -> String {
      let result = try host.run("translate", "--provider", "Apertium", "--from", "en", "--to", "es", text)
      try #require(result.exitCode == 0, "\(result.stderr)")
      return result.stdout.trimmingWhitespace()
    }

    /// Starts the popover on `desktop` for the selection, to replace it.
    static func popover(on desktop: AccessibleDesktop, host: Host) throws -> RunningCommand {
      try RunningCommand(
        [Host.executable, "run", "--selection", "--replace", "--provider", "Apertium", "--from", "en", "--to", "es"],
        environment: desktop.environment.merging(host.environment) { mine, _ in mine }.merging(
          ["TRANSLATION_HOST_PROVIDER_PATH": host.environment["TRANSLATION_HOST_PROVIDER_PATH"] ?? Host.providers]
        ) { $1 })
    }

    /// Presses `key` in the popover once its scene shows, checking it has the focus first.
    static func press(_ key: String, in popover: RunningCommand, on display: X11Server) throws -> RunningCommand.Frame {
      let window = try display.window(named: apertium)
      let frame = try popover.waitForScene(titled: apertium) { try display.geometry(of: window) }
      try eventually("the popover to have the focus", timeout: .seconds(10)) {
        (try? display.xdotool("getwindowfocus").trimmingWhitespace()) == window
      }
      try display.xdotool("key", key)
      return frame
    }

    @Test(arguments: editors)
    func replaceGoesExactlyOverTheSelectionThroughAccessibility(editor: Editor) throws {
      let desktop = try AccessibleDesktop()
      let host = try Host()
      let file = try desktop.folder.write("sentences.txt", Self.lines.joined(separator: "\n") + "\n")
      try desktop.start(editor.arguments(file))
      let window = try desktop.display.window(matching: editor.window(file))
      try eventually("\(editor.name) to join the accessibility bus", timeout: .seconds(30)) {
        desktop.hasAccessibleApplication(named: editor.accessibleName)
      }
      let translation = try Self.translation(of: Self.lines[0], host: host)
      // Something else owns the clipboard, and it must stay the owner: no paste, no clipboard.
      try desktop.display.setClipboard("what the person copied")
      let stamp = try desktop.clipboard("TIMESTAMP")
      try desktop.display.xdotool("windowactivate", "--sync", window)
      try eventually("the first line to be selected", timeout: .seconds(30), interval: .milliseconds(500)) {
        try desktop.display.xdotool("windowactivate", "--sync", window)
        try desktop.display.xdotool("key", "ctrl+Home", "shift+End")
        return try desktop.display.primarySelection() == Self.lines[0]
      }
      let editorFrame = try desktop.display.geometry(of: window)
      let selection = try #require(
        try desktop.selectionExtents(application: editor.accessibleName, window: window), "no selection's extents")
      let popover = try Self.popover(on: desktop, host: host)
      let frame = try Self.press("Return", in: popover, on: desktop.display)
      let outcome = try popover.waitForExit()
      #expect(outcome.exitCode == 0, "\(outcome.stderr)")
      #expect(outcome.stdout == translation)
      // Below the first line of the editor's text, not over it, and not at the screen's centre.
      #expect(frame.y > editorFrame.y && frame.y < editorFrame.y + 250, "popover at \(frame), editor at \(editorFrame)")
      // Its top edge (the arrow's tip) just below the selected line's extents, as the application gives them.
      let bottom = selection.y + selection.height
      #expect(frame.y >= bottom && frame.y < bottom + 10, "popover at \(frame), selection at \(selection)")
      #expect(frame.x <= selection.x + selection.width && selection.x <= frame.x + frame.width)

      try desktop.display.xdotool("windowactivate", "--sync", window)
      try desktop.display.xdotool("key", "ctrl+s")
      let expected = ([translation] + Self.lines.dropFirst()).joined(separator: "\n") + "\n"
      try eventually("\(editor.name) to save the translation", timeout: .seconds(30)) {
        (try? String(contentsOfFile: file, encoding: .utf8)) == expected
      }
      #expect(try desktop.clipboard("TIMESTAMP") == stamp, "the clipboard changed hands")
      #expect(try desktop.display.clipboard() == "what the person copied")
    }

    /// xterm has no accessibility: its selection is PRIMARY, which it owns, so
    /// the translation is pasted at its prompt with Shift+Insert (Ctrl+V
    /// would be the shell's literal-next), and the clipboard, an image and
    /// HTML from a GTK 4 application, comes back whole.
    @Test func aTerminalGetsThePasteAndTheRichClipboardComesBack() throws {
      let desktop = try AccessibleDesktop()
      let host = try Host()
      let output = desktop.folder.path + "/typed.txt"
      try desktop.start([
        "/usr/bin/xterm", "-title", "terminal", "-geometry", "80x10+40+40", "-e", "/bin/sh", "-c",
        "echo 'The cat is on the table.'; exec cat > \"$0\"", output,
      ])
      let terminal = try desktop.display.window(named: "terminal")
      let png = desktop.folder.path + "/picture.png"
      let picture = try desktop.display.run("/usr/bin/convert", "-size", "12x7", "gradient:red-blue", png)
      try #require(picture.exitCode == 0, "\(picture.stderr)")
      let html = "<p>The <b>cat</b></p>"
      let owner = try desktop.start(["/usr/bin/python3", RichClipboard.script, png, html])
      try eventually("the GTK 4 application to own the clipboard", timeout: .seconds(30), detail: { owner.stderr }) {
        try desktop.clipboard("text/html").map { String(decoding: $0, as: UTF8.self) } == html
      }
      let image = try #require(try desktop.clipboard("image/png"))

      // "cat" in the line xterm shows, double-clicked (the font is 6×13 pixels, the border 2).
      let frame = try desktop.origin(of: terminal)
      try eventually("xterm to select the word", timeout: .seconds(30), interval: .milliseconds(500)) {
        try desktop.display.xdotool("windowactivate", "--sync", terminal)
        try desktop.display.xdotool(
          "mousemove", String(frame.x + 2 + 5 * 6), String(frame.y + 2 + 6), "click", "--repeat", "2", "1")
        return try desktop.display.primarySelection() == "cat"
      }
      let translation = try Self.translation(of: "cat", host: host)
      let popover = try Self.popover(on: desktop, host: host)
      _ = try Self.press("Return", in: popover, on: desktop.display)
      let outcome = try popover.waitForExit()
      #expect(outcome.exitCode == 0, "\(outcome.stderr)")
      #expect(outcome.stdout == translation)
      try desktop.display.xdotool("windowactivate", "--sync", terminal)
      try desktop.display.xdotool("key", "Return", "ctrl+d")
      try eventually("the paste to reach the terminal", timeout: .seconds(30)) {
        (try? String(contentsOfFile: output, encoding: .utf8)) == translation + "\n"
      }
      // As long as the other waits: with four suites at once on 2 cores, 10 s was once too short.
      try eventually("the clipboard to come back", timeout: .seconds(30)) {
        try desktop.clipboard("text/html").map { String(decoding: $0, as: UTF8.self) } == html
      }
      #expect(try desktop.clipboard("image/png") == image)
    }

    /// A terminal focused without a selection of its own, PRIMARY owned by
    /// an editor's window: the editor's text is not the selection (it is
    /// never replaced), and the clipboard's text is translated without a
    /// Replace, so nothing is overwritten anywhere.
    @Test func textSelectedInAnotherWindowIsNeverReplaced() throws {
      let desktop = try AccessibleDesktop()
      let host = try Host()
      let file = try desktop.folder.write("elsewhere.txt", Self.lines.joined(separator: "\n") + "\n")
      try desktop.start(["/usr/bin/mousepad", file])
      let editor = try desktop.display.window(matching: "^" + X11Server.escaped(file) + " - Mousepad$")
      try desktop.start(["/usr/bin/xterm", "-title", "terminal", "-geometry", "80x10+40+40"])
      let terminal = try desktop.display.window(named: "terminal")
      try eventually("Mousepad to own PRIMARY with its first line", timeout: .seconds(30), interval: .milliseconds(500)) {
        try desktop.display.xdotool("windowactivate", "--sync", editor)
        try desktop.display.xdotool("key", "ctrl+Home", "shift+End")
        return try desktop.display.primarySelection() == Self.lines[0]
      }
      // Long enough to wrap: the popover is then as tall as a scene with a button.
      let copied = "The dog is on the table, and the cat is in the garden, and the bird is in the tree by the house."
      try desktop.display.setClipboard(copied)
      try desktop.display.xdotool("windowactivate", "--sync", terminal)
      let popover = try Self.popover(on: desktop, host: host)
      _ = try Self.press("Return", in: popover, on: desktop.display)
      // Return presses nothing: the clipboard's text is translated, with no Replace to press.
      Glibc.sleep(2)
      #expect(!popover.hasEnded, "the popover ended: \(popover.stderr)")
      try desktop.display.xdotool("key", "Escape")
      let outcome = try popover.waitForExit()
      #expect(outcome.exitCode == 2, "\(outcome.stderr)")
      #expect(outcome.stdout == "")
      try desktop.display.xdotool("windowactivate", "--sync", editor)
      try desktop.display.xdotool("key", "ctrl+s")
      Glibc.sleep(1)
      #expect((try? String(contentsOfFile: file, encoding: .utf8)) == Self.lines.joined(separator: "\n") + "\n")
      #expect(try desktop.display.clipboard() == copied)
    }
  }
}
