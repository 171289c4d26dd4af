import Glibc
import TestSupport
import Testing

@Suite(.tags(.endToEnd)) struct RunCommandTests {
  let reverse = Host.providers + "/Reverse.translationprovider"
  let rot13 = Host.providers + "/Rot13.translationprovider"

  @Test func appleSampleReplacesWithTheTranslation() throws {
    let result = try Host().run(
      "run", "--provider", reverse, "--text", "Hallo, Welt!", "--replace", "--press", "Translate", "--press",
      "Replace With Translation")
    #expect(result.stdout == "!tleW ,ollaH")
    #expect(result.exitCode == 0)
  }

  @Test func withoutReplaceTheReplaceButtonIsDisabled() throws {
    let result = try Host().run(
      "run", "--provider", reverse, "--text", "Hallo, Welt!", "--press", "Translate", "--press", "Replace With Translation")
    #expect(result.exitCode == 3)
    #expect(result.stdout == "")
    #expect(result.stderr.contains("button 'Replace With Translation' is disabled"))
  }

  /// One trailing line feed byte is taken off stdin and put back after the
  /// replacement, whatever precedes it: the provider (Reverse shows it)
  /// sees the rest exactly, a carriage return included.
  @Test(arguments: [
    ("Hello\n", "olleH\n"), ("Hello", "olleH"), ("Hello\n\n", "\nolleH\n"), ("Hello\r\n", "\rolleH\n"),
    ("Hello\r", "\rolleH"),
  ])
  func stdinKeepsItsTrailingNewline(stdin: String, stdout: String) throws {
    let result = try Host().run(
      "run", "--provider", reverse, "--replace", "--press", "translate", "--press", "replace with translation",
      stdin: stdin)
    #expect(result.stdout == stdout)
    #expect(result.exitCode == 0, "\(result.stderr)")
  }

  /// `--close-with-parent`: a popover whose parent ends is closed, with its
  /// provider, long before the provider's deadline; one started for a
  /// process that is not its parent does not open.
  @Test func aPopoverClosesWithItsParent() throws {
    let directory = try TemporaryDirectory()
    let library = try CFixture.compile(
      CFixture.packageRoot + "/Tests/Fixtures/misbehaving_provider.c", defines: ["HANG_IN_ACTION"], name: "libHang",
      in: directory)
    let bundle = try BundleFixture(name: "Hang", identifier: "org.example.closewithparent").write(
      name: "Hang", in: directory, library: library)
    let host = try Host()
    // A shell starts the popover (its provider hangs in the press), says
    // the popover's pid and whether it is still open a second later, and ends.
    let outcome = try host.run(
      program: "/bin/sh",
      [
        "-c",
        """
        '\(Host.executable)' run --close-with-parent=$$ --provider '\(bundle)' --text hi --press Go --timeout 60 \
          > /dev/null 2>&1 < /dev/null &
        echo $!
        sleep 1
        kill -0 $! && echo open
        """,
      ])
    let lines = outcome.stdout.split(separator: "\n")
    let pid = try #require(lines.first.flatMap { Int32($0) }, "\(outcome.stdout) \(outcome.stderr)")
    #expect(lines.contains("open"), "the popover was open while its parent lived")
    try eventually("the popover to close after its parent", timeout: .seconds(20)) { kill(pid, 0) != 0 }
    #expect(Processes.children(of: pid).isEmpty)

    let refused = try host.run(["run", "--close-with-parent=\(getppid())", "--provider", bundle, "--text", "hi"])
    #expect(refused.exitCode == 143)
    #expect(refused.stderr.contains("has ended (or is not its parent); closing it"), "\(refused.stderr)")
  }

  /// A runner spawned while the host's umask is narrow (the host narrows
  /// it for an instant to make a socket) still walks into its own private
  /// root and container: it sets its own umask.
  @Test func aNarrowUmaskDoesNotStopTheRunner() throws {
    let result = try Host(providerPath: Host.providers).run(
      program: "/bin/sh",
      [
        "-c", "umask 177 && exec \"$0\" \"$@\"", Host.executable, "translate", "--provider", "Rot13", "--no-service",
        "--from", "en", "--to", "en-x-rot13", "Hello",
      ])
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout == "Uryyb\n")
  }

  @Test func findsProvidersByIdentifierAndName() throws {
    let host = try Host(providerPath: Host.providers)
    for reference in ["org.translationhost.rot13", "Rot13"] {
      let result = try host.run(
        "run", "--provider", reference, "--text", "abc", "--replace", "--from", "en", "--to", "en-x-rot13")
      #expect(result.stdout == "nop")
    }
  }

  @Test func headlessRunShowsTheTranslationOnStderrWithoutReplace() throws {
    let result = try Host().run("run", "--provider", rot13, "--text", "abc", "--from", "en", "--to", "en-x-rot13")
    #expect(result.stdout == "")
    #expect(result.stderr == "nop\n")
    #expect(result.exitCode == 0)
  }

  @Test func aSceneOnlyProviderSaysWhatToDoWithoutPress() throws {
    let result = try Host().run("run", "--provider", reverse, "--text", "abc")
    #expect(result.exitCode == 64)
    #expect(
      result.stderr.contains("press its buttons with --press <label> (its buttons: 'Translate', 'Replace With Translation')"))
  }

  @Test func unfinishedScenesPrintNothing() throws {
    let result = try Host().run("run", "--provider", reverse, "--text", "abc", "--replace", "--press", "Translate")
    #expect(result.exitCode == 2)
    #expect(result.stdout == "")
    #expect(result.stderr.contains("it shows: abc cba Translate Replace With Translation"))
  }
}

@Suite(.tags(.endToEnd)) struct InProcessTests {
  @Test func inProcessRunsTheSameProvidersForDebugging() throws {
    let host = try Host()
    let reverse = try host.run(
      "run", "--provider", "Reverse", "--in-process", "--text", "abc", "--replace", "--press", "Translate", "--press",
      "Replace With Translation")
    #expect(reverse.stdout == "cba")
    #expect(reverse.stderr.contains("--in-process: the provider runs inside this process, without sandbox"))
    let rot13 = try host.run("translate", "--provider", "Rot13", "--in-process", "--from", "en", "--to", "en-x-rot13", "abc")
    #expect(rot13.stdout == "nop\n")
  }
}
