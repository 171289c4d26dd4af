import FoundationEssentials
import Glibc
import TestSupport
import Testing

/// Replace with Translation by paste, back to back with copies made by
/// another application (xclip, as the README's pipeline does): the paste
/// borrows the clipboard, a holder puts the earlier clipboard back once
/// the editor has read the translation, and a copy made just after must
/// survive the holder (xclip once died of it, and the copy with it).
extension DesktopSessions {
  @Suite struct Clipboard {
    static let sentence = "The cat is on the table."
    static let apertium = "Apertium (offline)"
    static let rounds = 100

    @Test func hundredRoundsOfReplaceAndCopyLoseNothing() throws {
      let display = try X11Server()
      let host = try Host()
      let folder = try TemporaryDirectory()
      let file = try folder.write("sentence.txt", Self.sentence + "\n")
      let editor = try TextEditor(file: file, on: display, home: folder.path + "/editor-home")
      try display.xdotool("mousemove", "200", "80")
      // Each round translates the editor's text the other way: what it holds is known.
      let directions = [("en", "es"), ("es", "en")]
      var text = Self.sentence
      try display.setClipboard("copy 0")
      for round in 1...Self.rounds {
        let (from, to) = directions[(round - 1) % 2]
        let expected = try host.run("translate", "--provider", "Apertium", "--from", from, "--to", to, text)
        try #require(expected.exitCode == 0, "\(expected.stderr)")
        let translation = expected.stdout.trimmingWhitespace()
        try eventually("round \(round): the editor's text to be selected", timeout: .seconds(30), interval: .milliseconds(300)) {
          try display.xdotool("windowfocus", "--sync", editor.window)
          try display.xdotool("key", "ctrl+End", "ctrl+a")
          return try display.primarySelection() == text
        }
        let popover = try RunningCommand(
          [Host.executable, "run", "--selection", "--replace", "--provider", "Apertium", "--from", from, "--to", to],
          environment: display.environment(host.environment))
        let window = try display.window(named: Self.apertium)
        try pressReplace(in: window, of: popover, on: display, round: round)
        let outcome = try popover.waitForExit()
        try #require(outcome.exitCode == 0, "round \(round): \(outcome.stderr)")
        #expect(outcome.stdout == translation, "round \(round)")
        // The copy made before the round comes back once the editor has the translation...
        try eventually("round \(round): the earlier copy to come back", timeout: .seconds(30)) {
          try display.clipboard() == "copy \(round - 1)"
        }
        // ...and a copy made at once after it is not taken away by the holder.
        try display.setClipboard("copy \(round)")
        text = translation
      }
      Glibc.sleep(2)
      #expect(try display.clipboard() == "copy \(Self.rounds)")
      try editor.save(on: display)
      try eventually("the editor to save the last translation", timeout: .seconds(30)) {
        editor.contents == text + "\n"
      }
    }

    /// Presses Return in the popover once its scene (with Replace focused)
    /// shows and the popover has the focus: never into the editor.
    private func pressReplace(in window: String, of popover: RunningCommand, on display: X11Server, round: Int) throws {
      var last = (x: 0, y: 0, width: 0, height: 0)
      var stable = 0
      try eventually("round \(round): the scene to be drawn", interval: .milliseconds(100), detail: { popover.stderr }) {
        guard !popover.hasEnded else { return true }
        let now = try display.geometry(of: window)
        stable = now == last ? stable + 1 : 0
        last = now
        return now.height > 120 && stable >= 3
      }
      try eventually("round \(round): the popover to have the focus", timeout: .seconds(10)) {
        (try? display.xdotool("getwindowfocus").trimmingWhitespace()) == window
      }
      try display.xdotool("key", "Return")
    }
  }
}
