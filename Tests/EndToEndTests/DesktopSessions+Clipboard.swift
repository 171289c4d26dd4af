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

    /// A window whose application owns the selection but does not read a
    /// paste (Tests/Fixtures/deaf_window.py): the paste is not confirmed,
    /// so the translation stays on the clipboard and the person is told,
    /// instead of the earlier clipboard coming back over it.
    @Test func anUnconfirmedPasteLeavesTheTranslationOnTheClipboard() throws {
      let display = try X11Server()
      let host = try Host()
      let expected = try host.run("translate", "--provider", "Apertium", "--from", "en", "--to", "es", Self.sentence)
      try #require(expected.exitCode == 0, "\(expected.stderr)")
      let translation = expected.stdout.trimmingWhitespace()
      let deaf = try RunningCommand(
        ["/usr/bin/python3", CFixture.packageRoot + "/Tests/Fixtures/deaf_window.py", "deaf", Self.sentence],
        environment: display.environment(ProcessInfo.processInfo.environment))
      defer { deaf.stop() }
      let window = try display.window(named: "deaf")
      try display.setClipboard("what the person copied")
      try eventually("the window to have the focus and the selection", timeout: .seconds(30)) {
        try display.xdotool("windowfocus", "--sync", window)
        return try display.primarySelection() == Self.sentence
      }
      try display.xdotool("mousemove", "200", "80")
      let popover = try RunningCommand(
        [Host.executable, "run", "--selection", "--replace", "--provider", "Apertium", "--from", "en", "--to", "es"],
        environment: display.environment(host.environment))
      try Self.pressReplace(in: try display.window(named: Self.apertium), of: popover, on: display, round: 1)
      let outcome = try popover.waitForExit()
      #expect(outcome.exitCode == 0, "\(outcome.stderr)")
      #expect(outcome.stderr.contains("did not take the paste"), "\(outcome.stderr)")
      #expect(outcome.stderr.contains("the translation is on the clipboard"), "\(outcome.stderr)")
      try eventually("the translation to stay on the clipboard", timeout: .seconds(30)) {
        try display.clipboard() == translation
      }
      Glibc.sleep(1)
      #expect(try display.clipboard() == translation)
    }

    /// Presses Return in the popover once its scene (with Replace focused)
    /// is drawn and the popover has the focus: never into the editor. A
    /// press the scene was not ready for is made again.
    static func pressReplace(in window: String, of popover: RunningCommand, on display: X11Server, round: Int) throws {
      _ = try popover.waitForScene(titled: Self.apertium) { try display.geometry(of: window) }
      try eventually("round \(round): Replace to end the popover", timeout: .seconds(60), interval: .seconds(5)) {
        if popover.hasEnded { return true }
        guard (try? display.xdotool("getwindowfocus").trimmingWhitespace()) == window else { return false }
        try display.xdotool("key", "Return")
        return false
      }
    }
  }
}

/// A hundred rounds of Replace by paste, each followed at once by a copy
/// made with xclip: nothing is lost (neither the translation, nor the copy
/// made before the round, which comes back, nor the one made after it).
/// It takes 8 to 16 minutes on 2 cores, longer than the whole of `make test`
/// may take, so it is a soak test: `make soak` runs it (TRANSLATION_HOST_SOAK=1).
@Suite(.serialized, .tags(.endToEnd)) struct ReplaceAndCopyRounds {
  static let rounds = 100

  @Test(.enabled(if: ProcessInfo.processInfo.environment["TRANSLATION_HOST_SOAK"] == "1", "a soak test: make soak"))
  func hundredRoundsOfReplaceAndCopyLoseNothing() throws {
    let display = try X11Server()
    let host = try Host()
    let folder = try TemporaryDirectory()
    let file = try folder.write("sentence.txt", DesktopSessions.Clipboard.sentence + "\n")
    let editor = try TextEditor(file: file, on: display, home: folder.path + "/editor-home")
    try display.xdotool("mousemove", "200", "80")
    // Each round translates the editor's text the other way: what it holds is known.
    let directions = [("en", "es"), ("es", "en")]
    var text = DesktopSessions.Clipboard.sentence
    var translations: [String: String] = [:]
    try display.setClipboard("copy 0")
    for round in 1...Self.rounds {
      let (from, to) = directions[(round - 1) % 2]
      // The text soon goes back and forth between two sentences: each is translated once.
      let key = "\(from)>\(to) \(text)"
      if translations[key] == nil {
        let expected = try host.run("translate", "--provider", "Apertium", "--from", from, "--to", to, text)
        try #require(expected.exitCode == 0, "\(expected.stderr)")
        translations[key] = expected.stdout.trimmingWhitespace()
      }
      let translation = translations[key]!
      try eventually("round \(round): the editor's text to be selected", timeout: .seconds(30), interval: .milliseconds(300)) {
        try display.xdotool("windowfocus", "--sync", editor.window)
        try display.xdotool("key", "ctrl+End", "ctrl+a")
        return try display.primarySelection() == text
      }
      // The copy made after the last round is still there (no holder took it away).
      #expect(try display.clipboard() == "copy \(round - 1)", "round \(round): the copy was lost before Replace")
      let popover = try RunningCommand(
        // Minutes of rounds on a loaded machine: a slow provider is not what is tested.
        [
          Host.executable, "run", "--selection", "--replace", "--provider", "Apertium", "--from", from, "--to", to,
          "--timeout", "120",
        ],
        environment: display.environment(host.environment))
      let window = try display.window(named: DesktopSessions.Clipboard.apertium)
      try DesktopSessions.Clipboard.pressReplace(in: window, of: popover, on: display, round: round)
      let outcome = try popover.waitForExit()
      try #require(outcome.exitCode == 0, "round \(round): \(outcome.stderr)")
      #expect(outcome.stdout == translation, "round \(round)")
      // The copy made before the round comes back once the editor has the translation...
      try eventually(
        "round \(round): the earlier copy to come back", timeout: .seconds(30),
        detail: { "the clipboard holds \(String(describing: try? display.clipboard())); \(outcome.stderr)" }
      ) {
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
}
