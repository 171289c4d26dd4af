import TestSupport
import Testing

/// Providers that abuse the letter of the ABI or of the runner protocol
/// (`Tests/Fixtures/protocol_abuser.c`): the host says what happened in one
/// line of its own, never replaces the caller's text with something the
/// provider did not give, and keeps its stderr to the documented size.
@Suite(.tags(.endToEnd)) struct ProtocolAbuseTests {
  static let source = CFixture.packageRoot + "/Tests/Fixtures/protocol_abuser.c"
  static let press = ["run", "--text", "hi", "--replace", "--press", "Go"]
  static let translate = ["translate", "--from", "en", "--to", "en-x-same", "hi"]

  struct Case: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var mode: String
    var arguments: [String]
    var exitCode: Int32
    /// What stderr must say.
    var message: String
  }

  static let cases: [Case] = [
    Case(
      testDescription: "finish with NULL data and a length", mode: "NULL_FINISH", arguments: press, exitCode: 70,
      message: "broke the provider ABI: the provider's replacement has NULL data but a length of 20 bytes"),
    Case(
      testDescription: "a translation with NULL data and a length", mode: "NULL_TRANSLATION", arguments: translate, exitCode: 70,
      message: "translation 0 has NULL data but a length of 3 bytes"),
    Case(
      testDescription: "a translation over the frame limit", mode: "HUGE_TRANSLATION", arguments: translate, exitCode: 70,
      message:
        "the provider's answer of 17825802 bytes is more than the runner protocol carries (16777216 bytes); translate less text at once"
    ),
    Case(
      testDescription: "a replacement over the frame limit", mode: "HUGE_FINISH", arguments: press, exitCode: 70,
      message:
        "broke the provider ABI: the provider's replacement of 17825799 bytes is more than the runner protocol carries (16777216 bytes)"
    ),
  ]

  static func bundle(_ mode: String, in directory: TemporaryDirectory) throws -> String {
    let library = try CFixture.compile(source, defines: [mode], name: "libAbuser", in: directory)
    return try BundleFixture(name: "Abuser").write(name: "Abuser", in: directory, library: library)
  }

  @Test(arguments: cases) func aBrokenRuleIsReportedAndReplacesNothing(_ test: Case) throws {
    let directory = try TemporaryDirectory()
    let result = try Host().run(test.arguments + ["--provider", try Self.bundle(test.mode, in: directory)])
    #expect(result.exitCode == test.exitCode, "stderr: \(result.stderr)")
    #expect(result.stdout == "")
    #expect(result.stderr.contains(test.message), "stderr: \(result.stderr)")
    #expect(!result.stderr.contains("exited with status 0"))
  }

  /// Every line the host writes on stderr is its own or carries the
  /// provider's prefix: a provider's text cannot start a line.
  @Test func aNewlineInAProvidersMessageCannotForgeAHostLine() throws {
    let directory = try TemporaryDirectory()
    let result = try Host().run(Self.translate + ["--provider", try Self.bundle("NEWLINE_IN_MESSAGE", in: directory)])
    #expect(result.exitCode == 70, "stderr: \(result.stderr)")
    #expect(!result.stderr.split(separator: "\n").contains { $0.hasPrefix("translation-host: provider 'org.example.trusted'") })
    #expect(result.stderr.contains(#"no dictionary\u{A}translation-host: provider 'org.example.trusted'"#), "\(result.stderr)")
  }

  @Test func aNewlineInCFBundleExecutableCannotForgeAHostLine() throws {
    let directory = try TemporaryDirectory()
    let forged = "libAbuser.so\ntranslation-host: provider 'org.example.trusted' translated 1 text"
    var fixture = BundleFixture(name: "Abuser")
    fixture.info["CFBundleExecutable"] = .string(forged)
    let bundle = try fixture.write(name: "Abuser", in: directory)
    for arguments in [Self.translate + ["--provider", bundle], ["info", bundle], ["validate", bundle]] {
      let result = try Host().run(arguments)
      #expect((result.stderr + result.stdout).contains("without '/', '..' or control characters"), "\(arguments[0])")
      let lines = (result.stderr + result.stdout).split(separator: "\n")
      #expect(!lines.contains { $0.hasPrefix("translation-host: provider 'org.example.trusted'") }, "\(arguments[0]): \(lines)")
    }
  }

  /// Empty lines cost the provider one byte each and the host a prefix each;
  /// the cap is on what the host writes.
  @Test func theStderrCapCountsWhatTheHostWrites() throws {
    let directory = try TemporaryDirectory()
    let result = try Host().run(Self.translate + ["--provider", try Self.bundle("NEWLINES_ON_STDERR", in: directory)])
    #expect(result.exitCode == 0, "stderr: \(result.stderr.suffix(500))")
    #expect(result.stdout == "hi\n")
    #expect(result.stderr.utf8.count <= 64 * 1024 + 200, "\(result.stderr.utf8.count) bytes on stderr")
    #expect(result.stderr.contains("(more output dropped)"))
  }
}
