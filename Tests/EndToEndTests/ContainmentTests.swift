import Foundation
import Glibc
import TestSupport
import Testing

/// Providers written to misbehave: the host stays up, says what happened in
/// one line, writes nothing to stdout, exits with the documented code, and no
/// process of the provider is left running.
@Suite(.tags(.endToEnd)) struct ContainmentTests {
  static let source = CFixture.packageRoot + "/Tests/Fixtures/misbehaving_provider.c"
  static let press = ["run", "--text", "hi", "--replace", "--press", "Go"]
  static let translate = ["translate", "--from", "en", "--to", "en-x-upper", "hi"]

  struct Case: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var mode: String
    var arguments: [String]
    var exitCode: Int32
    var message: String
    var environment: [String: String] = [:]
  }

  static let cases: [Case] = [
    Case(
      testDescription: "crash in a constructor", mode: "CRASH_IN_CONSTRUCTOR", arguments: translate, exitCode: 70,
      message: "was killed by SIGSEGV"),
    Case(
      testDescription: "crash in init", mode: "CRASH_IN_INIT", arguments: translate, exitCode: 70,
      message: "was killed by SIGSEGV"),
    Case(
      testDescription: "crash in get_capability", mode: "CRASH_IN_GET_CAPABILITY", arguments: translate, exitCode: 70,
      message: "was killed by SIGSEGV"),
    Case(
      testDescription: "crash in create_scene", mode: "CRASH_IN_CREATE_SCENE", arguments: press, exitCode: 70,
      message: "was killed by SIGSEGV"),
    Case(
      testDescription: "crash in render", mode: "CRASH_IN_RENDER", arguments: press, exitCode: 70,
      message: "was killed by SIGSEGV"),
    Case(
      testDescription: "crash in perform_action", mode: "CRASH_IN_PERFORM", arguments: press, exitCode: 70,
      message: "was killed by SIGSEGV"),
    Case(
      testDescription: "crash in translate", mode: "CRASH_IN_TRANSLATE", arguments: translate, exitCode: 70,
      message: "was killed by SIGSEGV"),
    Case(
      testDescription: "crash in languages", mode: "CRASH_IN_LANGUAGES", arguments: ["validate"], exitCode: 69,
      message: "languages: provider"),
    Case(
      testDescription: "crash in destroy", mode: "CRASH_IN_DESTROY", arguments: ["validate"], exitCode: 69,
      message: "was killed by SIGSEGV"),
    Case(testDescription: "abort", mode: "ABORT_IN_ACTION", arguments: press, exitCode: 70, message: "was killed by SIGABRT"),
    Case(
      testDescription: "exit(0) mid-request", mode: "EXIT_ZERO_IN_ACTION", arguments: press, exitCode: 70,
      message: "exited with status 0 while working"),
    Case(
      testDescription: "_exit(7) mid-request", mode: "EXIT_IN_ACTION", arguments: press, exitCode: 70,
      message: "exited with status 7"),
    Case(
      testDescription: "infinite loop", mode: "SPIN_IN_ACTION", arguments: press + ["--timeout", "1"], exitCode: 75,
      message: "did not answer within 1 s and was stopped"),
    Case(
      testDescription: "sleep forever", mode: "HANG_IN_ACTION", arguments: press + ["--timeout", "0.5"], exitCode: 75,
      message: "did not answer within 0.5 s"),
    Case(
      testDescription: "allocate without bound", mode: "ALLOCATE_IN_ACTION", arguments: press, exitCode: 70,
      message: "was killed by SIGABRT",
      environment: ["TRANSLATION_HOST_LIMIT_MEMORY_MIB": "512"]),
    Case(
      testDescription: "fork without bound", mode: "FORK_IN_ACTION", arguments: press + ["--timeout", "2"], exitCode: 75,
      message: "did not answer within 2 s"),
    Case(
      testDescription: "view tree that is not JSON", mode: "NOT_JSON", arguments: press, exitCode: 70,
      message: "drew an unusable view: view tree is not JSON at byte 0: unexpected '<' where a value should be, near '<html>"),
    Case(
      testDescription: "view tree with a node that lacks a key", mode: "BAD_TREE", arguments: press, exitCode: 70,
      message: "drew an unusable view: malformed view tree at 'root.0': missing key 'text'"),
    Case(
      testDescription: "finishing twice", mode: "FINISH_TWICE", arguments: press, exitCode: 70,
      message: "broke the provider ABI: the provider called finish twice"),
    Case(
      testDescription: "closing the protocol socket, then hanging", mode: "CLOSE_AND_HANG",
      arguments: press + ["--timeout", "1"], exitCode: 70,
      message: "was killed by SIGKILL"),
    Case(
      testDescription: "a flood of events", mode: "EVENT_FLOOD", arguments: press + ["--timeout", "1"], exitCode: 75,
      message: "did not answer within 1 s"),
    Case(
      testDescription: "an oversized frame on the protocol socket", mode: "OVERSIZED_FRAME", arguments: press, exitCode: 70,
      message: "broke the runner protocol: a message of 2147483647 bytes exceeds the 16777216-byte limit"),
    Case(
      testDescription: "a frame that is not UTF-8", mode: "NOT_UTF8_FRAME", arguments: press, exitCode: 70,
      message: "broke the runner protocol: malformed message: a string is not valid UTF-8"),
  ]

  @Test(arguments: cases) func hostileProvidersAreContained(_ test: Case) throws {
    let directory = try TemporaryDirectory()
    let identifier = UniqueName.make("org.example.hostile")
    let library = try CFixture.compile(Self.source, defines: [test.mode], name: "libHostile", in: directory)
    let bundle = try BundleFixture(name: "Hostile", identifier: identifier).write(
      name: "Hostile", in: directory, library: library)
    var host = try Host()
    host.environment.merge(test.environment) { $1 }
    let arguments = test.arguments == ["validate"] ? ["validate", bundle] : test.arguments + ["--provider", bundle]
    let result = try host.run(arguments)
    #expect(result.exitCode == test.exitCode, "stderr: \(result.stderr)")
    #expect((result.stdout + result.stderr).contains(test.message), "stdout: \(result.stdout) stderr: \(result.stderr)")
    #expect(test.arguments == ["validate"] || result.stdout == "")
    #expect(Self.processes(mentioning: identifier).isEmpty)
  }

  @Test func processesAProviderStartsDieWithItEvenWhenItSucceeds() throws {
    let directory = try TemporaryDirectory()
    let identifier = UniqueName.make("org.example.daemon")
    let library = try CFixture.compile(Self.source, defines: ["DAEMON_CHILD"], name: "libDaemon", in: directory)
    let bundle = try BundleFixture(name: "Daemon", identifier: identifier).write(name: "Daemon", in: directory, library: library)
    let result = try Host().run(Self.press + ["--provider", bundle])
    #expect(result.stdout == "HI")
    #expect(Self.processes(mentioning: identifier).isEmpty)
  }

  @Test func aFloodOfOutputIsDrainedAndNeverReachesStdout() throws {
    let directory = try TemporaryDirectory()
    let library = try CFixture.compile(Self.source, defines: ["FLOOD_IN_ACTION"], name: "libFlood", in: directory)
    let bundle = try BundleFixture(name: "Flood").write(name: "Flood", in: directory, library: library)
    let result = try Host().run(Self.press + ["--provider", bundle])
    #expect(result.exitCode == 0)
    #expect(result.stdout == "HI")
    #expect(result.stderr.utf8.count < 200_000)
    #expect(result.stderr.contains("translation-host: provider 'org.example.flood': xxxx"))
    #expect(result.stderr.contains("(more output dropped)"))
  }

  @Test(arguments: [false, true]) func theNetworkKeyDecidesWhetherLoopbackIsReachable(_ allowed: Bool) throws {
    let listener = try Listener()
    let directory = try TemporaryDirectory()
    let library = try CFixture.compile(Self.source, defines: ["CONNECT_IN_ACTION"], name: "libNet", in: directory)
    var fixture = BundleFixture(name: "Net")
    if allowed { fixture.info["com.apple.developer.translation-ui-provider.network-access"] = .boolean(true) }
    let bundle = try fixture.write(name: "Net", in: directory, library: library)
    let result = try Host().run("run", "--text", String(listener.port), "--replace", "--press", "Go", "--provider", bundle)
    #expect(result.exitCode == 0, "stderr: \(result.stderr)")
    if allowed {
      #expect(result.stdout == "CONNECTED")
      #expect(listener.acceptedConnection(withinMilliseconds: 10_000))
    } else {
      #expect(result.stdout == "REFUSED:socket:EPERM")
      #expect(!listener.acceptedConnection())
    }
  }

  @Test func aForgedFinishCannotReplaceWhatWasNotAllowed() throws {
    let directory = try TemporaryDirectory()
    let library = try CFixture.compile(Self.source, defines: ["FORGE_FINISH"], name: "libForge", in: directory)
    let bundle = try BundleFixture(name: "Forge").write(name: "Forge", in: directory, library: library)
    let result = try Host().run("run", "--text", "hi", "--press", "Go", "--provider", bundle)
    #expect(result.stdout == "")
    #expect(result.exitCode == 70)
    #expect(result.stderr.contains("the provider called finish twice"))
  }

  @Test func noSocketFamilyButUnixGetsPastTheFilter() throws {
    let directory = try TemporaryDirectory()
    let library = try CFixture.compile(Self.source, defines: ["SOCKET_TRICKS"], name: "libTricks", in: directory)
    let bundle = try BundleFixture(name: "Tricks").write(name: "Tricks", in: directory, library: library)
    let result = try Host().run(Self.press + ["--provider", bundle])
    #expect(result.stdout == "ALL-REFUSED", "stderr: \(result.stderr)")
  }

  /// Process ids whose command line mentions `text` once they had 2 s to end
  /// (none, at once, when none are left).
  static func processes(mentioning text: String) -> [pid_t] {
    _ = try? eventually("no process to mention \(text)", timeout: .seconds(2)) { Processes.mentioning(text).isEmpty }
    return Processes.mentioning(text)
  }
}
