import Foundation
import Glibc
import Presentation
import TestSupport
import Testing

@testable import Translation

/// `translationPresentation` in a graphical session, from an app's side
/// (`Examples/ReplaceSelection`): the window is the installation's
/// `translation-host-desktop run`, here a script in an installation of its
/// own that records what it was given and answers as `run` does. (The real
/// window, drawn, is `DesktopSessions.X11`'s.)
@Suite struct DesktopPresentationTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let testDescription: String
    var viewOnly = false
    /// What the app is given to present (as its argument).
    var text = "Hello, world"
    /// The script's answer: its stdout, its stderr and exit status, as `run`'s.
    var answer = ""
    var status: Int32 = 0
    var error = ""
    /// The app's exit status (0 replaced or viewed, 1 dismissed, 69 failed, 130 interrupted) and output.
    let exitCode: Int32
    var stdout = ""
    var stderr = ""
    /// Whether the script is there at all.
    var installed = true
    /// Shell commands the script runs before it answers.
    var before = ""
  }

  static let cases: [Case] = [
    Case(testDescription: "replaced", answer: "Hola, mundo\n", exitCode: 0, stdout: "Hola, mundo\n"),
    Case(
      testDescription: "a text and a replacement with line breaks of their own, kept exactly", text: "two\nlines\n\n",
      answer: "dos\nlíneas\n\n\n", exitCode: 0, stdout: "dos\nlíneas\n\n\n"),
    Case(testDescription: "dismissed", status: 2, exitCode: 1),
    Case(testDescription: "viewed without a replacement action", viewOnly: true, status: 2, exitCode: 0),
    Case(
      testDescription: "an unsupported pair", status: 4, error: "Error: Reverse does not translate en to xx\n", exitCode: 69,
      stderr: "ReplaceSelection: Reverse does not translate en to xx\n"),
    Case(
      testDescription: "the provider failed", status: 70, error: "note\nError: Reverse crashed (SIGSEGV)\n", exitCode: 69,
      stderr: "ReplaceSelection: Reverse crashed (SIGSEGV)\n"),
    Case(testDescription: "interrupted", status: 130, exitCode: 130, stderr: "ReplaceSelection: interrupted\n"),
    Case(
      testDescription: "a replacement over 16 MiB, refused whole", exitCode: 69,
      stderr: "ReplaceSelection: the translation popover's replacement is larger than 16 MiB; it was not used",
      before: "head -c 17000000 /dev/zero | tr '\\0' a"),
    Case(
      testDescription: "a provider that says two megabytes before the error", status: 70, error: "Error: Reverse crashed\n",
      exitCode: 69, stderr: "ReplaceSelection: Reverse crashed\n", before: "{ head -c 2000000 /dev/zero | tr '\\0' x; echo; } >&2"
    ),
    Case(
      testDescription: "no translation-host-desktop", exitCode: 69,
      stderr: "ReplaceSelection: the translation popover's window is drawn by translation-host-desktop, which is not installed",
      installed: false),
  ]

  @Test(arguments: cases) func theWindowIsTranslationHostDesktopRun(_ test: Case) throws {
    let installation = try TemporaryDirectory()
    let prefix = URL(fileURLWithPath: installation.path).resolvingSymlinksInPath().path
    // An app finds the installation through the translation-host on its PATH.
    try install(try installation.write("tool", "#!/bin/sh\nexit 1\n"), as: prefix + "/bin/translation-host")
    if test.installed {
      let script = """
        #!/bin/sh
        printf '%s\\n' "$@" > '\(prefix)/arguments'
        echo $PPID > '\(prefix)/parent'
        cat > '\(prefix)/text'
        \(test.before)
        printf '%s' '\(test.answer)'
        printf '%s' '\(test.error)' >&2
        exit \(test.status)
        """
      try install(
        try installation.write("desktop", script), as: prefix + "/libexec/translation-host/translation-host-desktop")
    }
    let environment = ["PATH": prefix + "/bin:/usr/bin:/bin", "DISPLAY": ":99", "HOME": installation.path]
    let app = try Command.run(
      try ReplaceSelectionTests.binary(), (test.viewOnly ? ["--view-only"] : []) + [test.text], environment: environment)
    #expect(app.exitCode == test.exitCode, "\(app.stderr)")
    #expect(app.stdout == test.stdout)
    if test.stderr.isEmpty {
      #expect(app.stderr == "")
    } else {
      #expect(app.stderr.hasPrefix(test.stderr), "\(app.stderr)")
    }
    guard test.installed else { return }
    // The text on stdin with one line break more, which `run` takes off; never on the command line.
    #expect(try String(contentsOfFile: prefix + "/text", encoding: .utf8) == test.text + "\n")
    let arguments = try String(contentsOfFile: prefix + "/arguments", encoding: .utf8).split(separator: "\n")
    // The window closes if the app ends first.
    let parent = try String(contentsOfFile: prefix + "/parent", encoding: .utf8).trimmingWhitespace()
    #expect(
      arguments
        == ["run", "--close-with-parent=\(parent)", "--desktop", "--arrow-edge=top"] + (test.viewOnly ? [] : ["--replace"]),
      "ReplaceSelection anchors at a terminal cell, which is no screen point")
  }

  /// Cancelling the task that awaits the presentation closes the window:
  /// its process group is killed, and the call throws `CancellationError`.
  @Test func cancellingTheTaskClosesTheWindow() async throws {
    let installation = try TemporaryDirectory()
    let prefix = URL(fileURLWithPath: installation.path).resolvingSymlinksInPath().path
    try install(try installation.write("tool", "#!/bin/sh\nexit 1\n"), as: prefix + "/bin/translation-host")
    // A window that stays open: it reads the text, says it is up, and waits.
    let script = "#!/bin/sh\ncat > /dev/null\necho $$ > '\(prefix)/pid'\nexec sleep 60\n"
    try install(try installation.write("desktop", script), as: prefix + "/libexec/translation-host/translation-host-desktop")
    let environment = ["PATH": prefix + "/bin:/usr/bin:/bin", "DISPLAY": ":99"]
    let presentation = Task {
      try await presentOnDesktop("Hello", allowsReplacement: true, anchor: nil, arrowEdge: .top, environment)
    }
    // Long: the presentation starts on the cooperative pool, which other
    // suites' synchronous tests (a minute of Apertium) may hold meanwhile.
    let pid = try await eventually("the window to be up", timeout: .seconds(300)) {
      (try? String(contentsOfFile: prefix + "/pid", encoding: .utf8)).flatMap { Int32($0.trimmingWhitespace()) }
    }
    presentation.cancel()
    await #expect(throws: CancellationError.self) { try await presentation.value }
    // Gone, and reaped by the presentation: not even a zombie is left.
    #expect(kill(pid, 0) == -1 && errno == ESRCH)
  }

  private func install(_ file: String, as path: String) throws {
    let result = try Command.run("/usr/bin/install", ["-D", "-m", "0755", file, path])
    try #require(result.exitCode == 0, "install: \(result.stderr)")
  }
}
