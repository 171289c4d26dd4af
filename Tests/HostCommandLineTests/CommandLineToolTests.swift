import Core
import Glibc
import RunnerProtocol
import Service
import System
import TestSupport
import Testing

@testable import HostCommandLine

/// The command line in this process, with a context of its own: options,
/// errors and exit codes, without starting a CLI, a runner or the service.
@Suite struct CommandLineToolTests {
  /// What a stand-in provider was asked to translate, and with what options it was launched.
  final class Requests: @unchecked Sendable {
    var launches: [(provider: String?, timeout: Duration, usesService: Bool)] = []
    var batches: [(texts: [String], source: String, target: String)] = []
  }

  /// A provider that is never started: it answers with the texts upper-cased, or fails with `failure`.
  final class StandInTranslator: TranslatorSession {
    let requests: Requests
    let failure: HostError?
    init(_ requests: Requests, failure: HostError?) {
      self.requests = requests
      self.failure = failure
    }
    func translate(_ texts: [String], from source: String, to target: String) throws(HostError) -> [String] {
      requests.batches.append((texts, source, target))
      if let failure { throw failure }
      return texts.map { $0.uppercased() }
    }
    func languages() throws(HostError) -> [LanguagePairStatus] { [] }
    func close() {}
    var hasEnded: Bool { false }
    var interruption: @Sendable () -> Void { {} }
  }

  struct StandInLauncher: SessionLauncher {
    let requests: Requests
    var failure: HostError?

    func scene(
      provider: String?, timeout: Duration, usesService: Bool, environment: [String: String], notice: (String) -> Void
    ) throws -> any SceneSession {
      throw CommandError("these tests open no scene", exitCode: .failure)
    }

    func translator(
      provider: String?, timeout: Duration, usesService: Bool, settingOverrides: [String: SettingValue],
      environment: [String: String], notice: @escaping (String) -> Void
    ) throws -> any TranslatorSession {
      requests.launches.append((provider, timeout, usesService))
      return StandInTranslator(requests, failure: failure)
    }
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var testDescription: String
    var arguments: [String]
    var environment: [String: String] = ["LANG": "C.UTF-8"]
    var failure: HostError?
    var exitCode: Int32
    /// stdout exactly, or nil to check `stdoutContains`.
    var stdout: String? = ""
    var stdoutContains: [String] = []
    /// The beginning of stderr.
    var stderr: String = ""
    /// (provider, timeout, uses the service) of the launch, when one is expected.
    var launch: (provider: String?, timeout: Duration, usesService: Bool)?
    /// (source, target) of the one request, when one is expected.
    var languages: (source: String, target: String)?
  }

  static let cases: [Case] = [
    Case(
      testDescription: "an unknown subcommand is a usage error", arguments: ["fly"], exitCode: 64,
      stderr: "Error: unknown subcommand 'fly'\n  See 'translation-host --help'"),
    Case(
      testDescription: "--help goes to stdout with the exit codes", arguments: ["--help"], exitCode: 0, stdout: nil,
      stdoutContains: ["OVERVIEW:", "EXIT STATUS:", "translate"]),
    Case(
      testDescription: "help <command> is the command's help", arguments: ["help", "translate"], exitCode: 0, stdout: nil,
      stdoutContains: ["USAGE: translation-host translate", "--timeout <seconds>"]),
    Case(
      testDescription: "a timeout that is not a positive number",
      arguments: ["translate", "--timeout", "0", "--from", "en", "--to", "es", "hi"], exitCode: 64,
      stderr: "Error: '--timeout' needs a positive number of seconds up to 86400, not '0'\nUsage: translation-host translate"),
    Case(
      testDescription: "an unknown option", arguments: ["translate", "--fast", "hi"], exitCode: 64,
      stderr: "Error: unknown option '--fast'"),
    Case(
      testDescription: "two texts", arguments: ["translate", "a", "b"], exitCode: 64,
      stderr: "Error: expected one text, got 2; quote the text"),
    Case(
      testDescription: "--lines with a text argument", arguments: ["translate", "--lines", "text"], exitCode: 64,
      stderr: "Error: --lines reads stdin; drop the <text> argument"),
    Case(
      testDescription: "an empty text", arguments: ["translate", "--from", "en", "--to", "es", ""], exitCode: 65,
      stderr: "Error: nothing to translate: the text is empty"),
    Case(
      testDescription: "a translation, through the service by default",
      arguments: ["translate", "--from", "en", "--to", "es", "hello world"], exitCode: 0, stdout: "HELLO WORLD\n",
      launch: (nil, .seconds(24), true), languages: ("en", "es")),
    Case(
      testDescription: "the provider, its deadline and --no-service reach the launcher",
      arguments: ["translate", "--provider", "Rot13", "--timeout", "2.5", "--no-service", "--from", "en", "--to", "es", "x"],
      exitCode: 0, stdout: "X\n", launch: ("Rot13", .milliseconds(2500), false), languages: ("en", "es")),
    Case(
      testDescription: "without --to, the target is the context's preferred language",
      arguments: ["translate", "--from", "en", "hello"], environment: ["LANG": "de_DE.UTF-8"], exitCode: 0,
      stdout: "HELLO\n", launch: (nil, .seconds(24), true), languages: ("en", "de")),
    Case(
      testDescription: "without --to or a preferred language, a usage error",
      arguments: ["translate", "--from", "en", "hello"], environment: ["LANG": "C"], exitCode: 64,
      stderr: "Error: missing '--to <tag>', and no preferred language other than 'en'"),
    Case(
      testDescription: "--json", arguments: ["translate", "--from", "en", "--to", "es", "--json", "hi"], exitCode: 0,
      stdout: #"{"sourceLanguage":"en","sourceText":"hi","targetLanguage":"es","targetText":"HI"}"# + "\n",
      launch: (nil, .seconds(24), true), languages: ("en", "es")),
    Case(
      testDescription: "a provider that misses its deadline",
      arguments: ["translate", "--from", "en", "--to", "es", "hi"],
      failure: HostError(.deadlineExceeded, "provider 'org.example.slow' did not answer within 24 s"), exitCode: 75,
      stderr: "Error: provider 'org.example.slow' did not answer within 24 s", launch: (nil, .seconds(24), true),
      languages: ("en", "es")),
    Case(
      testDescription: "a pair the provider does not translate",
      arguments: ["translate", "--from", "en", "--to", "fr", "hi"],
      failure: HostError(.unsupportedLanguagePairing, "unsupported language pairing 'en' → 'fr'"), exitCode: 4,
      stderr: "Error: unsupported language pairing 'en' → 'fr'", launch: (nil, .seconds(24), true),
      languages: ("en", "fr")),
  ]

  @Test(arguments: cases) func optionsErrorsAndExitCodes(_ test: Case) throws {
    let folder = try TemporaryDirectory()
    let stdout = FileDescriptor(rawValue: open(folder.path + "/stdout", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600))
    defer { Syscalls.close(stdout) }
    let stderr = FileDescriptor(rawValue: open(folder.path + "/stderr", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600))
    defer { Syscalls.close(stderr) }
    let requests = Requests()
    let context = CommandContext(
      environment: test.environment, output: Output(standardOutput: stdout, standardError: stderr),
      launcher: StandInLauncher(requests: requests, failure: test.failure))

    let exitCode = CommandLineTool.run(test.arguments, in: context)

    let written = try String(contentsOfFile: folder.path + "/stdout", encoding: .utf8)
    let diagnostics = try String(contentsOfFile: folder.path + "/stderr", encoding: .utf8)
    #expect(exitCode.rawValue == test.exitCode, "stderr: \(diagnostics)")
    if let stdout = test.stdout { #expect(written == stdout) }
    for text in test.stdoutContains { #expect(written.contains(text), "\(text) in \(written)") }
    #expect(diagnostics.hasPrefix(test.stderr), "\(diagnostics)")
    if test.stderr.isEmpty { #expect(diagnostics == "") }
    #expect(requests.launches.count == (test.launch == nil ? 0 : 1))
    if let launch = test.launch, let launched = requests.launches.first {
      #expect(launched.provider == launch.provider)
      #expect(launched.timeout == launch.timeout)
      #expect(launched.usesService == launch.usesService)
    }
    #expect(requests.batches.map { "\($0.source)→\($0.target)" } == (test.languages.map { ["\($0.source)→\($0.target)"] } ?? []))
  }
}
