import TestSupport
import Testing

/// Every way a run can fail that is not the provider misbehaving at run time
/// (that is `ContainmentTests`): the exit code is the documented one, stderr
/// says what happened, and stdout stays empty.
@Suite(.tags(.endToEnd)) struct FailureTests {
  static let source = CFixture.packageRoot + "/Tests/Fixtures/misbehaving_provider.c"

  struct Case: Sendable, CustomTestStringConvertible {
    var testDescription: String
    /// Compile-time mode of the fixture provider; nil writes a text file as the library.
    var defines: [String]?
    var arguments: [String]
    var exitCode: Int32
    var message: String
    var entitled = true
    /// What to write as the library when `defines` is nil.
    var library: Library = .text

    enum Library: Sendable { case text, elfHeader }
  }

  static let press = ["run", "--text", "hi", "--replace", "--press", "Go"]

  static let cases: [Case] = [
    Case(testDescription: "not ELF", defines: nil, arguments: press, exitCode: 69, message: "not an ELF shared object"),
    Case(
      testDescription: "fake ELF header", defines: nil, arguments: press, exitCode: 69, message: "cannot be loaded",
      library: .elfHeader),
    Case(
      testDescription: "no entry", defines: ["NO_ENTRY"], arguments: press, exitCode: 69,
      message: "exports neither 'translation_provider_entry_v2' nor 'translation_provider_entry'"),
    Case(
      testDescription: "ABI 2", defines: ["ABI_MAJOR=2"], arguments: press, exitCode: 69,
      message: "built for provider ABI 2.7, but this host speaks ABI 1."),
    Case(testDescription: "init fails", defines: ["INIT_FAILS"], arguments: press, exitCode: 69, message: "init returned false"),
    Case(
      testDescription: "not entitled", defines: [], arguments: press, exitCode: 69,
      message: "entitlement 'com.apple.developer.translation-app' is not true, so this provider may not run", entitled: false),
    Case(
      testDescription: "missing answer", defines: ["SKIP_ANSWER"],
      arguments: ["translate", "--from", "en", "--to", "en-x-upper", "x"], exitCode: 70, message: "did not answer index 0"),
    Case(
      testDescription: "no such button", defines: [], arguments: ["run", "--text", "hi", "--press", "Stop"], exitCode: 3,
      message: "no button 'Stop' in the scene; its buttons are 'Go'"),
    Case(
      testDescription: "usage", defines: [], arguments: ["run", "--press"], exitCode: 64,
      message: "missing value for '--press <label>'"),
    Case(
      testDescription: "bad timeout", defines: [], arguments: press + ["--timeout", "soon"], exitCode: 64,
      message: "'--timeout' needs a positive number of seconds"),
    Case(
      testDescription: "a timeout beyond a day", defines: [], arguments: press + ["--timeout", "1e300"], exitCode: 64,
      message: "up to 86400, not '1e300'"),
    Case(
      testDescription: "bad tag", defines: [], arguments: ["translate", "--from", "english!", "--to", "es", "x"], exitCode: 64,
      message: "is not a BCP-47 language tag"),
    Case(
      testDescription: "empty text", defines: [], arguments: ["translate", "--from", "en", "--to", "en-x-upper", ""],
      exitCode: 65, message: "nothing to translate"),
  ]

  @Test(arguments: cases) func failsWithTheDocumentedCode(_ test: Case) throws {
    let directory = try TemporaryDirectory()
    let library = try test.defines.map { try CFixture.compile(Self.source, defines: $0, name: "fixture", in: directory) }
    var fixture = BundleFixture(name: "Fixture")
    if !test.entitled { fixture.entitlements = [:] }
    let bundle = try fixture.write(name: "Fixture", in: directory, library: library)
    if library == nil, test.library == .text { try directory.write("Fixture.translationprovider/libFixture.so", "not a library") }
    let result = try Host().run(test.arguments + ["--provider", bundle])
    #expect(result.exitCode == test.exitCode)
    #expect(result.stderr.contains(test.message), "stderr: \(result.stderr)")
    #expect(result.stdout == "")
  }

  @Test func finishingTwiceIsAViolationAndReplacesNothing() throws {
    let directory = try TemporaryDirectory()
    let library = try CFixture.compile(Self.source, defines: ["FINISH_TWICE"], name: "twice", in: directory)
    let bundle = try BundleFixture(name: "Twice").write(name: "Twice", in: directory, library: library)
    let result = try Host().run(Self.press + ["--provider", bundle])
    #expect(result.stdout == "")
    #expect(result.exitCode == 70)
    #expect(result.stderr.contains("broke the provider ABI: the provider called finish twice"))
  }

  @Test func invalidUTF8InputIsRefused() throws {
    let result = try Host().run("translate", "--from", "en", "--to", "es", stdin: "ok \u{FFFD}")
    #expect(result.exitCode != 65)  // valid UTF-8 passes the check (then fails for other reasons)
    let invalid = try Host().run(program: "/bin/sh", ["-c", "printf 'a\\377b' | \(Host.executable) translate --from en --to es"])
    #expect(invalid.exitCode == 65)
    #expect(invalid.stderr.contains("not valid UTF-8 (first bad byte at offset 1)"))
  }
}
