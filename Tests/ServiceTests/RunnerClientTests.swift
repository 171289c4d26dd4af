import Foundation
import TestSupport
import Testing

@testable import Core
@testable import RunnerProtocol
@testable import Service
@testable import System

/// The host's side of a real runner (the one built beside this test binary).
@Suite(.tags(.endToEnd)) struct RunnerClientTests {
  static let source = CFixture.packageRoot + "/Tests/Fixtures/misbehaving_provider.c"

  private func launch(_ defines: [String], in directory: TemporaryDirectory) throws -> RunnerClient {
    let library = try CFixture.compile(Self.source, defines: defines, name: "libClient", in: directory)
    let path = try BundleFixture(name: "Client").write(name: "Client", in: directory, library: library)
    let bundle = try ProviderBundle.load(at: path)
    return try RunnerClient.launch(
      bundle: bundle, policy: try SandboxPolicy.forBundle(bundle), runnerPath: Self.runner, timeout: .seconds(5))
  }

  /// The runner SwiftPM built beside this test binary (a test is no
  /// translation-host program, so `RunnerLocator` would not look there).
  static let runner =
    URL(fileURLWithPath: Syscalls.executablePath() ?? "").deletingLastPathComponent().path + "/translation-provider-runner"

  @Test func reportsTheSandboxAndCapabilities() throws {
    let directory = try TemporaryDirectory()
    let client = try launch([], in: directory)
    defer { client.close() }
    #expect(client.capabilities == [.selectedTextScene, .translate])
    #expect(client.sandbox.contains(.networkFilter))
    #expect(client.sandbox.contains(.systemCallFilter))
    #expect(client.sandbox.contains(.fileSystem))
    #expect(client.sandbox.contains(.noCapabilities))
    try client.ping()
  }

  @Test func aCrashInSetTextEndsTheRunnerAndLaterRequestsSaySo() throws {
    let directory = try TemporaryDirectory()
    let client = try launch(["CRASH_IN_SET_TEXT"], in: directory)
    defer { client.close() }
    _ = try client.openScene(inputText: "hi", allowsReplacement: true)
    // The crash, named with the signal and (from Swift's backtrace in its log) where it happened.
    let crashed = { (error: any Error) -> Bool in
      "\(error)".hasPrefix("provider 'org.example.client' was killed by SIGSEGV while working (")
        && "\(error)".contains("in the provider's code:")
    }
    #expect { try client.setText("field", to: "x") } throws: { crashed($0) }
    #expect(client.hasEnded)
    #expect { try client.render() } throws: { crashed($0) }
  }

  @Test func anUnknownControlIsAProviderFailureNotACrash() throws {
    let directory = try TemporaryDirectory()
    let client = try launch([], in: directory)
    defer { client.close() }
    _ = try client.openScene(inputText: "hi", allowsReplacement: true)
    #expect(
      throws: RunnerError.providerFailed(provider: "org.example.client", status: .notFound, message: "action 'nope'").hostError
    ) {
      try client.performAction("nope")
    }
    #expect(try client.performAction("go") == .finished(translation: "HI"))
  }
}
