import Foundation
import Glibc
import TestSupport
import Testing

/// The ApertiumAPY provider against Debian's apertium-apy, started by the test
/// on 127.0.0.1 only and stopped by its process id.
@Suite(.serialized, .tags(.endToEnd)) struct ApertiumAPYProviderTests {
  static let wrapper = CFixture.packageRoot + "/Tests/Fixtures/apy_loopback.py"

  /// A host whose ApertiumAPY provider points at `port`.
  private func host(port: UInt16) throws -> Host {
    let host = try Host()
    let set = try host.run("config", "ApertiumAPY", "endpoint", "http://127.0.0.1:\(port)")
    #expect(set.exitCode == 0, "\(set.stderr)")
    return host
  }

  @Test func translatesThroughARealServer() throws {
    let folder = try TemporaryDirectory()
    let port = BackgroundProcess.freePort()
    let server = try BackgroundProcess(
      "/usr/bin/python3", [Self.wrapper, "-p", String(port), "-l", folder.path + "/langNames.db", "/usr/share/apertium/modes"],
      log: folder.path + "/apy.log")
    defer { server.stop() }
    let log = { (try? String(contentsOfFile: folder.path + "/apy.log", encoding: .utf8)) ?? "" }
    try eventually("apertium-apy to listen on port \(port)", timeout: .seconds(20), interval: .milliseconds(100), detail: log) {
      BackgroundProcess.isListening(port)
    }

    let host = try host(port: port)
    let translated = try host.run(
      "translate", "--provider", "ApertiumAPY", "--from", "en", "--to", "es", "The cat is on the table.")
    #expect(translated.stdout == "El gato es en la mesa.\n", "\(translated.stderr)")
    let pairs = try host.run("languages", "--provider", "ApertiumAPY")
    #expect(pairs.stdout.contains("en → es  installed"))
    let unsupported = try host.run("translate", "--provider", "ApertiumAPY", "--from", "en", "--to", "fr", "x")
    #expect(unsupported.exitCode == 4)
  }

  @Test func aServerThatIsDownIsAClearError() throws {
    let port = BackgroundProcess.freePort()
    let result = try host(port: port).run("translate", "--provider", "ApertiumAPY", "--from", "en", "--to", "es", "x")
    #expect(result.exitCode == 70)
    #expect(result.stdout == "")
    #expect(result.stderr.contains("cannot reach the Apertium-APY server at http://127.0.0.1:\(port)"))
    let languages = try host(port: port).run("languages", "--provider", "ApertiumAPY", "--from", "en", "--to", "es")
    #expect(languages.exitCode == 70)
    #expect(languages.stdout == "")
    #expect(languages.stderr.contains("cannot list languages: cannot reach the Apertium-APY server"))
  }

  @Test func aServerThatNeverAnswersMissesTheProviderDeadline() throws {
    let silent = try Listener()  // accepts connections (the kernel does) and never answers
    let host = try host(port: silent.port)
    _ = try host.run("config", "ApertiumAPY", "timeout", "1")
    let result = try host.run("translate", "--provider", "ApertiumAPY", "--from", "en", "--to", "es", "x")
    #expect(result.exitCode == 70)
    #expect(result.stderr.contains("did not answer within 1 s"))
  }

  @Test func settingsAreCheckedAgainstTheirDeclaration() throws {
    let host = try Host()
    #expect(try host.run("config", "ApertiumAPY").stdout.contains("endpoint = http://127.0.0.1:2737 (default)"))
    let wrongType = try host.run("config", "ApertiumAPY", "timeout", "soon")
    #expect(wrongType.exitCode == 64)
    #expect(wrongType.stderr.contains("setting 'timeout' takes an integer, not 'soon'"))
    let unknown = try host.run("config", "ApertiumAPY", "colour", "blue")
    #expect(unknown.stderr.contains("has no setting 'colour'; its settings are 'endpoint', 'timeout'"))
    #expect(try host.run("config", "ApertiumAPY", "timeout", "3").stdout == "org.translationhost.apertium-apy: timeout = 3\n")
    #expect(try host.run("config", "ApertiumAPY").stdout.contains("timeout = 3    "))
  }
}
