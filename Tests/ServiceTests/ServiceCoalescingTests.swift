import Foundation
import Glibc
import RunnerProtocol
import Service
import System
import TestSupport
import Testing

/// Headless requests for one provider and pair share runner batches
/// (`TranslationCoalescer`): each client still gets exactly its own answers,
/// none waits behind another's long request, and each keeps its own deadline.
@Suite(.serialized, .tags(.endToEnd)) struct ServiceCoalescingTests {
  /// A bundle of the misbehaving provider built with every one of `modes`, in `folder`.
  static func provider(_ modes: [String], in folder: TemporaryDirectory) throws -> String {
    let name = modes.joined(separator: "-").lowercased().replacingOccurrences(of: "_", with: "-")
    let library = try CFixture.compile(ServiceRobustnessTests.fixture, defines: modes, name: "lib\(name)", in: folder)
    return try BundleFixture(name: "Hostile", identifier: "org.example.\(name)").write(
      name: "Hostile", in: folder, library: library)
  }

  /// Runs `body` on a thread of its own; the result is read with `value()`.
  final class Background<T>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<T, any Error>?
    private(set) var finishedAt: ContinuousClock.Instant?

    init(_ body: @escaping @Sendable () throws -> T) {
      Thread { [self] in
        result = Result { try body() }
        finishedAt = .now
        done.signal()
      }.start()
    }

    func value() throws -> T {
      done.wait()
      return try result!.get()
    }
  }

  /// Clients with long requests, then (once the provider was reached)
  /// clients with a single line each, for one slow provider (2 ms a text).
  struct FairnessCase: CustomTestStringConvertible, Sendable {
    var name: String
    var runners: Int
    var long: (clients: Int, lines: Int)
    var shortClients: Int
    var testDescription: String { name }
  }

  static let fairnessCases: [FairnessCase] = [
    FairnessCase(
      name: "one runner: a single line behind another client's 10,000 lines (20 s)", runners: 1, long: (1, 10_000),
      shortClients: 1),
    FairnessCase(
      name: "one runner: four clients' single lines behind another client's 3,000", runners: 1, long: (1, 3_000),
      shortClients: 4),
    FairnessCase(
      name: "two runners: two clients' single lines behind two clients' 3,000 each", runners: 2, long: (2, 3_000),
      shortClients: 2),
  ]

  /// No client waits behind another's long request: every single line is
  /// answered while every long request is still being worked on (a long
  /// request goes to the runners a slice at a time), and every client gets
  /// exactly its own answers, in order.
  @Test(arguments: fairnessCases) func noClientWaitsBehindAnotherClientsLongRequest(_ test: FairnessCase) throws {
    let folder = try TemporaryDirectory()
    let slow = try Self.provider(["SLOW_PER_TEXT"], in: folder)
    let (service, marker) = try ServiceRobustnessTests.markingService(watching: slow)
    try service.start(["--runners", String(test.runners)])
    defer { service.stop() }
    let location = service.location
    let longRequests = (0..<test.long.clients).map { client in
      let lines = (0..<test.long.lines).map { "client \(client) line \($0)" }
      return (
        lines,
        Background {
          try ServiceClient.connect(to: location).translate(
            lines, from: "en", to: "en-x-upper", provider: slow, timeout: .seconds(300))
        }
      )
    }
    try ServiceRobustnessTests.waitUntilReached(marker)
    let shortRequests = (0..<test.shortClients).map { client in
      Background {
        try ServiceClient.connect(to: location).translate(
          ["a single line from \(client)"], from: "en", to: "en-x-upper", provider: slow, timeout: .seconds(60))
      }
    }
    for (client, short) in shortRequests.enumerated() { #expect(try short.value() == ["A SINGLE LINE FROM \(client)"]) }
    let lastShort = try #require(shortRequests.compactMap(\.finishedAt).max())
    for (lines, long) in longRequests {
      #expect(try long.value() == lines.map { $0.uppercased() })
      let finished = try #require(long.finishedAt)
      #expect(lastShort < finished, "a single line was answered only after a long request")
    }
  }

  /// How a request with a deadline fares beside another on the same runner.
  struct DeadlineCase: CustomTestStringConvertible, Sendable {
    var name: String
    var modes: [String]
    /// The first request (sent, and reached the provider, before the second).
    var first: (texts: [String], timeout: Duration)
    var second: (texts: [String], timeout: Duration)
    /// Each request's answer, or the start of its error message.
    var firstOutcome: Outcome
    var secondOutcome: Outcome
    var testDescription: String { name }

    enum Outcome: Sendable, Equatable {
      case answers([String])
      case error(containing: String)
    }
  }

  static let deadlineCases: [DeadlineCase] = [
    DeadlineCase(
      name: "a request queued behind a busy runner fails as busy at its own deadline; the busy one is answered",
      modes: ["SLOW_TRANSLATE"], first: (["first"], .seconds(30)), second: (["second"], .milliseconds(300)),
      firstOutcome: .answers(["FIRST"]), secondOutcome: .error(containing: "stayed busy for 0.3 s")),
    DeadlineCase(
      name: "a request whose runner hangs fails at its own deadline; the one queued behind it is served by a new runner",
      modes: ["TEXT_TRIGGERS"], first: (["hang"], .seconds(1)), second: (["after"], .seconds(30)),
      firstOutcome: .error(containing: "did not answer within 1 s"), secondOutcome: .answers(["AFTER"])),
    DeadlineCase(
      name: "a long request whose deadline passes between its slices fails at it; a line sent behind it is answered",
      modes: ["SLOW_PER_TEXT"], first: ((0..<2_000).map { "line \($0)" }, .seconds(1)), second: (["fine"], .seconds(30)),
      firstOutcome: .error(containing: "did not answer within 1 s"), secondOutcome: .answers(["FINE"])),
    DeadlineCase(
      name: "a text that crashes the provider fails its own request only, even in a batch with another",
      modes: ["TEXT_TRIGGERS", "SLOW_PER_TEXT"], first: (Array(repeating: "slow", count: 300) + ["crash"], .seconds(30)),
      second: (["fine"], .seconds(30)), firstOutcome: .error(containing: "killed by SIGSEGV"),
      secondOutcome: .answers(["FINE"])),
  ]

  @Test(arguments: deadlineCases) func eachRequestKeepsItsOwnDeadline(_ test: DeadlineCase) throws {
    let folder = try TemporaryDirectory()
    let bundle = try Self.provider(test.modes, in: folder)
    let (service, marker) = try ServiceRobustnessTests.markingService(watching: bundle)
    try service.start(["--runners", "1"])
    defer { service.stop() }
    let location = service.location
    @Sendable func outcome(_ request: (texts: [String], timeout: Duration)) -> DeadlineCase.Outcome {
      do {
        return .answers(
          try ServiceClient.connect(to: location).translate(
            request.texts, from: "en", to: "en-x-upper", provider: bundle, timeout: request.timeout))
      } catch {
        return .error(containing: "\(error)")
      }
    }
    let first = Background { outcome(test.first) }
    try ServiceRobustnessTests.waitUntilReached(marker)
    let second = outcome(test.second)
    for (actual, expected) in [(try first.value(), test.firstOutcome), (second, test.secondOutcome)] {
      switch (actual, expected) {
      case (.error(let message), .error(let part)): #expect(message.contains(part), "\(message)")
      default: #expect(actual == expected)
      }
    }
  }
}
