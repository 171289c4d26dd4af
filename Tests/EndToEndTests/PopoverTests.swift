import Glibc
import TestSupport
import Testing

/// `translation-host run` on a real terminal (tmux): the popover, its keys,
/// placement and replacement, and the terminal given back on every path.
@Suite(.tags(.endToEnd)) struct PopoverTests {
  /// Starts `run` with `arguments` on a terminal, stdin and stdout as pipes.
  /// The terminal keeps the host (its home) until `run` has ended.
  private func popover(
    _ arguments: [String], stdin: String = "", environment: [String: String] = [:], host: Host? = nil,
    rows: Int = 24, columns: Int = 80, stdoutOnTerminal: Bool = false
  ) throws -> TerminalSession {
    let host = try host ?? Host()
    var environment = host.environment.merging(environment) { $1 }
    environment["TERM"] = environment["TERM"] ?? "xterm-256color"
    environment["LANG"] = "C.UTF-8"
    return try TerminalSession(
      [Host.executable, "run"] + arguments, environment: environment, stdin: stdin, rows: rows, columns: columns,
      stdoutOnTerminal: stdoutOnTerminal, keeping: [host])
  }

  @Test func reverseTranslatesThenReplaces() throws {
    let terminal = try popover(["--provider", "Reverse", "--replace", "--from", "en"], stdin: "Hello, world\n")
    let first = try terminal.waitFor("Translate ]")
    #expect(first.contains("Reverse (Apple's sample)"))
    #expect(first.contains("Hello, world"))
    try terminal.press("Enter")
    try terminal.waitFor("dlrow ,olleH")
    try terminal.press("Tab", "Enter")
    let outcome = try terminal.waitForExit()
    #expect(outcome.exitCode == 0)
    #expect(outcome.stdout == "dlrow ,olleH\n")
    #expect(outcome.terminalRestored)
  }

  /// Apple's sample enables Replace before anything was translated: a
  /// person who presses it first gets an empty replacement, which the
  /// popover never writes silently (as `run --press` does not).
  @Test func anEmptyReplacementIsNeverWrittenSilently() throws {
    let terminal = try popover(["--provider", "Reverse", "--replace", "--from", "en"], stdin: "Hello, world\n")
    try terminal.waitFor("Translate ]")
    try terminal.press("Tab", "Enter")
    let outcome = try terminal.waitForExit()
    #expect(outcome.exitCode == 70)
    #expect(outcome.stdout == "")
    #expect(outcome.terminalRestored)
    // The line wraps at 80 columns: compared without white space.
    let message =
      "Error: provider 'org.translationhost.reverse' returned an empty replacement for a text that was not empty; nothing replaced"
    let bare = { (text: String) in text.filter { !$0.isWhitespace } }
    try terminal.waitFor("the empty replacement's message") { bare($0).contains(bare(message)) }
  }

  @Test(arguments: ["Escape", "q"])
  func dismissingWritesNothing(key: String) throws {
    let terminal = try popover(["--provider", "Reverse", "--replace", "--from", "en"], stdin: "Hello")
    try terminal.waitFor("Translate ]")
    try terminal.press(key)
    let outcome = try terminal.waitForExit()
    #expect(outcome.exitCode == 2)
    #expect(outcome.stdout == "")
    #expect(outcome.terminalRestored)
  }

  @Test func withoutReplaceTheReplaceButtonIsDisabledAndSkipped() throws {
    let terminal = try popover(["--provider", "Reverse", "--from", "en"], stdin: "abc")
    try terminal.waitFor("Translate ]")
    let styled = try terminal.screen(styles: true)
    // Dimmed (SGR 2) and never focused: Tab wraps back to Translate, so Enter translates.
    #expect(styled.contains("\u{1B}[2m[ Replace With Translation ]"))
    try terminal.press("Tab", "Enter")
    try terminal.waitFor("cba")
    try terminal.press("Escape")
    let outcome = try terminal.waitForExit()
    #expect(outcome.exitCode == 2)
    #expect(outcome.stdout == "")
  }

  @Test func asksForTheSourceLanguageWhenItCannotBeDetected() throws {
    let terminal = try popover(["--provider", "Apertium", "--to", "en", "--replace"], stdin: "Hola")
    let picker = try terminal.waitFor("could not be detected")
    #expect(picker.contains("[ Spanish (es) ]"))
    #expect(picker.contains("[ English (en) ]"))
    try terminal.type("es")
    try terminal.press("Enter")
    try terminal.waitFor("Hello")
    try terminal.press("Enter")
    let outcome = try terminal.waitForExit()
    #expect(outcome.stdout == "Hello")
    #expect(outcome.exitCode == 0)
  }

  @Test func apertiumTranslatesOnAppear() throws {
    let expected = try Command.run("/usr/bin/apertium", ["eng-spa"], stdin: "The house is big and the garden is small.\n")
    let terminal = try popover(
      ["--provider", "Apertium", "--from", "en", "--to", "es"], stdin: "The house is big and the garden is small.\n")
    try terminal.waitFor(expected.stdout.trimmingWhitespace())
    try terminal.press("Escape")
    #expect(try terminal.waitForExit().terminalRestored)
  }

  @Test func redrawsWhenResizedAndExplainsATinyTerminal() throws {
    let terminal = try popover(["--provider", "Reverse", "--from", "en"], stdin: String(repeating: "word ", count: 40))
    try terminal.waitFor("Translate ]")
    try terminal.resize(rows: 12, columns: 30)
    let narrow = try terminal.waitFor("┌")
    #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= 30 })
    #expect(narrow.contains("word word"))
    try terminal.resize(rows: 4, columns: 20)
    try terminal.waitFor("The terminal is too")
    try terminal.resize(rows: 24, columns: 80)
    try terminal.waitFor("Translate ]")
    try terminal.press("Escape")
    #expect(try terminal.waitForExit().terminalRestored)
  }

  @Test func longInputScrolls() throws {
    let text = (1...60).map { "line \($0)" }.joined(separator: "\n")
    let terminal = try popover(["--provider", "Reverse", "--from", "en"], stdin: text, rows: 20)
    let first = try terminal.waitFor("1–")
    #expect(first.contains("line 1\n") || first.contains("line 1 "))
    #expect(!first.contains("line 40"))
    try terminal.press("NPage", "NPage")
    let scrolled = try terminal.waitFor("line 40 ")
    #expect(!scrolled.contains("line 1 "))
    try terminal.press("PPage", "PPage")
    try terminal.waitFor("line 1 ")
    try terminal.press("Escape")
    #expect(try terminal.waitForExit().terminalRestored)
  }

  @Test(arguments: [
    ("interrupt with Ctrl-C", "C-c", 130)
  ])
  func interruptingRestoresTheTerminal(_ name: String, key: String, exitCode: Int32) throws {
    let terminal = try popover(["--provider", "Reverse", "--replace", "--from", "en"], stdin: "Hello")
    try terminal.waitFor("Translate ]")
    try terminal.press(key)
    let outcome = try terminal.waitForExit()
    #expect(outcome.exitCode == exitCode)
    #expect(outcome.stdout == "")
    #expect(outcome.terminalRestored)
  }

  /// Termination signals end the popover through its loop; a crash of the
  /// host itself (SIGSEGV, SIGABRT) is caught by the handler that restores
  /// the terminal before the process dies of it.
  @Test(arguments: [
    (SIGTERM, Int32(143)), (SIGHUP, Int32(129)), (SIGINT, Int32(130)), (SIGSEGV, Int32(139)), (SIGABRT, Int32(134)),
  ])
  func signalsRestoreTheTerminal(signal: Int32, exitCode: Int32) throws {
    let terminal = try popover(["--provider", "Reverse", "--replace", "--from", "en"], stdin: "Hello")
    try terminal.waitFor("Translate ]")
    try terminal.signal(signal)
    let outcome = try terminal.waitForExit()
    #expect(outcome.exitCode == exitCode)
    #expect(outcome.terminalRestored)
  }

  @Test(arguments: [
    ("CRASH_IN_PERFORM", [String](), Int32(70), "was killed by SIGSEGV"),
    ("HANG_IN_ACTION", ["--timeout", "1"], Int32(75), "did not answer within 1 s"),
  ])
  func aProviderFailingMidSceneLeavesAWorkingTerminal(mode: String, options: [String], exitCode: Int32, message: String) throws {
    let directory = try TemporaryDirectory()
    let library = try CFixture.compile(ContainmentTests.source, defines: [mode], name: "libHostile", in: directory)
    let bundle = try BundleFixture(name: "Hostile", identifier: "org.example.hostile.popover").write(
      name: "Hostile", in: directory, library: library)
    let terminal = try popover(["--provider", bundle, "--replace", "--from", "en"] + options, stdin: "hi")
    try terminal.waitFor("Go ]")
    try terminal.press("Enter")
    let outcome = try terminal.waitForExit()
    #expect(outcome.exitCode == exitCode)
    #expect(outcome.stdout == "")
    #expect(outcome.terminalRestored)
    #expect(try terminal.waitFor(message).contains("Error: provider"))
  }

  /// While a provider works on a press, the popover still answers: Esc
  /// dismisses and Ctrl-C interrupts at once, stopping the provider, long
  /// before its deadline.
  @Test(arguments: [("Escape", Int32(2)), ("C-c", Int32(130))])
  func keysInterruptAProviderThatHangs(key: String, exitCode: Int32) throws {
    let directory = try TemporaryDirectory()
    let library = try CFixture.compile(ContainmentTests.source, defines: ["HANG_IN_ACTION"], name: "libHostile", in: directory)
    let bundle = try BundleFixture(name: "Hostile", identifier: "org.example.hostile.hang").write(
      name: "Hostile", in: directory, library: library)
    let terminal = try popover(["--provider", bundle, "--replace", "--from", "en", "--timeout", "600"], stdin: "hi")
    try terminal.waitFor("Go ]")
    try terminal.press("Enter")
    try terminal.waitFor("working")
    try terminal.press(key)
    let outcome = try terminal.waitForExit(seconds: 60)
    #expect(outcome.exitCode == exitCode)
    #expect(outcome.stdout == "")
    #expect(outcome.terminalRestored)
  }

  @Test func editsFieldsRedrawsWhenAskedAndExpands() throws {
    let directory = try TemporaryDirectory()
    let library = try CFixture.compile(CFixture.packageRoot + "/Tests/Fixtures/form_provider.c", name: "libForm", in: directory)
    let bundle = try BundleFixture(name: "Form", identifier: "org.example.form").write(
      name: "Form", in: directory, library: library)
    let terminal = try popover(["--provider", bundle, "--replace", "--anchor", "3,10"], stdin: "hi")
    try terminal.waitFor("Type a word")
    // Focus starts on the field: typing edits it, Left moves the caret, Backspace deletes.
    try terminal.type("wrlx")
    try terminal.press("BSpace", "d", "Left", "Left", "Left")
    try terminal.type("o")
    try terminal.waitFor("world")
    // "Later" makes the provider redraw on its own 300 ms later, with no key pressed.
    try terminal.press("Tab", "Enter")
    try terminal.waitFor("Updated on its own")
    // expandSheet: the popover takes the whole screen, its title on the top row.
    try terminal.press("Tab", "Enter")
    let expanded = try terminal.waitFor("the popover to fill the screen") { $0.hasPrefix("┌─ Form") }
    let rows = expanded.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(rows[0].hasPrefix("┌─ Form") && rows[0].count == 80)
    #expect(rows[23].hasPrefix("└") && rows[23].hasSuffix("┘"))
    try terminal.press("Tab", "Enter")
    let outcome = try terminal.waitForExit()
    #expect(outcome.exitCode == 0)
    #expect(outcome.stdout == "world")
    #expect(outcome.terminalRestored)
  }

  struct Placement: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var arrow: Character
    /// Where the arrow must be: row and column from 0.
    var arrowCell: (row: Int, column: Int)
    var testDescription: String { arguments.joined(separator: " ") }
  }

  @Test(arguments: [
    Placement(arguments: ["--anchor", "1,1"], arrow: "▲", arrowCell: (1, 1)),
    Placement(arguments: ["--anchor", "1,80"], arrow: "▲", arrowCell: (1, 78)),
    Placement(arguments: ["--anchor", "24,40"], arrow: "▼", arrowCell: (22, 39)),
    Placement(arguments: ["--anchor", "24,40", "--arrow-edge", "top"], arrow: "▼", arrowCell: (22, 39)),
    Placement(arguments: ["--anchor", "1,40", "--arrow-edge", "bottom"], arrow: "▲", arrowCell: (1, 39)),
    Placement(arguments: ["--anchor", "12,1", "--arrow-edge", "leading"], arrow: "◀", arrowCell: (11, 1)),
    Placement(arguments: ["--anchor", "12,80", "--arrow-edge", "leading"], arrow: "▶", arrowCell: (11, 78)),
    Placement(arguments: ["--anchor", "12,80", "--arrow-edge", "trailing"], arrow: "▶", arrowCell: (11, 78)),
  ])
  func placesThePopoverNextToTheAnchor(_ test: Placement) throws {
    let terminal = try popover(["--provider", "Reverse", "--from", "en"] + test.arguments, stdin: "Hello")
    let screen = try terminal.waitFor("Translate ]")
    let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
    // Columns, not characters: the globe before "Translate" is two columns wide.
    let found = rows.enumerated().compactMap { row, characters in
      characters.firstIndex(of: test.arrow).map { index in
        (row, characters[..<index].reduce(0) { $0 + ($1.unicodeScalars.first!.value >= 0x1F000 ? 2 : 1) })
      }
    }
    #expect(found.count == 1)
    #expect(found.first?.0 == test.arrowCell.row && found.first?.1 == test.arrowCell.column)
    try terminal.press("Escape")
    _ = try terminal.waitForExit()
  }

  @Test func noColorDropsColoursButKeepsFocus() throws {
    for (environment, coloured) in [([String: String](), true), (["NO_COLOR": "1"], false)] {
      let terminal = try popover(
        ["--provider", "Reverse", "--from", "en", "--anchor", "1,1"], stdin: "Hello", environment: environment)
      try terminal.waitFor("Translate ]")
      let styled = try terminal.screen(styles: true)
      #expect(styled.contains("\u{1B}[36m") == coloured)
      // The focused button in bold reverse video, with or without colour.
      #expect(styled.contains("\u{1B}[1;7m[ 🌐 Translate ]"))
      try terminal.press("Escape")
      _ = try terminal.waitForExit()
    }
  }

  @Test(arguments: [["TERM": "dumb"], ["TERM": ""]])
  func aTerminalThatCannotPlaceTheCursorGetsPlainText(environment: [String: String]) throws {
    let terminal = try popover(
      ["--provider", "Rot13", "--from", "en", "--to", "en-x-rot13", "--replace"], stdin: "Hello", environment: environment)
    let outcome = try terminal.waitForExit()
    #expect(outcome.exitCode == 0)
    #expect(outcome.stdout == "Uryyb")
    #expect(outcome.terminalRestored)
    let screen = try terminal.screen()
    #expect(!screen.contains("┌"))
    #expect(screen.replacing("\n", with: "").contains("so the popover cannot be drawn"))
  }

  @Test func aReplacementShownOnTheTerminalCannotDriveIt() throws {
    // Reverse turns "\u{7}TITLE;0]\u{1B}" into an OSC sequence that would set the window title.
    let terminal = try popover(
      ["--provider", "Reverse", "--replace", "--from", "en", "--press", "Translate", "--press", "Replace With Translation"],
      stdin: "\u{7}TITLE;0]\u{1B}", stdoutOnTerminal: true)
    #expect(try terminal.waitForExit().exitCode == 0)
    #expect(try terminal.screen().contains("\\u{1B}]0;ELTIT\\u{7}"))
  }
}
