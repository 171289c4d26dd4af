import Dispatch
import Glibc
import Service
import System
import Testing

@testable import ResidentService

/// The coalescer's decisions, in this process with fake runners
/// (`FakeRunners`): batching, fairness, deadlines, order, and runners that
/// hold two batches at once. The real runners are `ServiceCoalescingTests`'.
@Suite struct TranslationCoalescerTests {
  /// A request on a thread of its own, started `after` a delay.
  final class Client: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<[String], any Error>?
    private(set) var finishedAt: ContinuousClock.Instant?

    /// `arriving` is called on its thread just before it sends the request.
    init(
      _ coalescer: TranslationCoalescer, _ runners: FakeRunners, _ texts: [String], timeout: Duration = .seconds(30),
      after delay: Duration = .zero, arriving: (@Sendable () -> Void)? = nil
    ) {
      DetachedThread.start(name: "client") { [self] in
        if delay > .zero { usleep(UInt32(delay.inSeconds * 1_000_000)) }
        arriving?()
        result = Result { try coalescer.translate(texts, from: "en", to: "es", runners: runners, timeout: timeout) }
        finishedAt = .now
        done.signal()
      }
    }

    func value() throws -> [String] {
      done.wait()
      return try result!.get()
    }

    /// The error's description, or nil after answers.
    func failure() -> String? {
      done.wait()
      if case .failure(let error) = result! { return "\(error)" }
      return nil
    }
  }

  struct Shape: CustomTestStringConvertible, Sendable {
    var name: String
    var runners: Int
    var batchesInFlight: Int
    var testDescription: String { name }
  }

  static let shapes = [
    Shape(name: "one runner, one batch at a time", runners: 1, batchesInFlight: 1),
    Shape(name: "one runner holding two batches", runners: 1, batchesInFlight: 2),
    Shape(name: "two runners, one batch each", runners: 2, batchesInFlight: 1),
    Shape(name: "two runners holding two batches each", runners: 2, batchesInFlight: 2),
  ]

  /// Eight clients sending sentences one after another: each gets exactly
  /// its own answers in order; concurrent requests share batches; no runner
  /// holds more batches than it may, and one that may hold two is given two.
  @Test(arguments: shapes) func eightClientsGetTheirOwnAnswersInSharedBatches(_ shape: Shape) throws {
    let runners = FakeRunners(limit: shape.runners, batchesInFlight: shape.batchesInFlight, perText: .microseconds(300))
    let coalescer = TranslationCoalescer(runnersPerProvider: shape.runners)
    final class Sequence: @unchecked Sendable {
      var answers: [[String]] = []
    }
    let done = DispatchGroup()
    let results = (0..<8).map { _ in Sequence() }
    for client in 0..<8 {
      done.enter()
      DetachedThread.start(name: "client") {
        for sentence in 0..<25 {
          let text = "client \(client) sentence \(sentence)"
          results[client].answers.append(
            (try? coalescer.translate([text], from: "en", to: "es", runners: runners, timeout: .seconds(30))) ?? ["failed"])
        }
        done.leave()
      }
    }
    done.wait()
    for client in 0..<8 {
      #expect(results[client].answers == (0..<25).map { ["CLIENT \(client) SENTENCE \($0)"] })
    }
    let batches = runners.batches
    #expect(batches.count < 8 * 25, "no batch served more than one request")
    #expect(runners.started.allSatisfy { $0.mostHeld <= shape.batchesInFlight })
    // A runner that streams is sent each request's text as a message of its own.
    let messages = runners.started.flatMap(\.messages)
    if shape.batchesInFlight > 1 {
      #expect(messages.allSatisfy { $0.allSatisfy { $0.count == 1 } })
    } else {
      #expect(messages.allSatisfy { $0.count == 1 })
    }
  }

  /// Two requests that share a batch: in a runner that streams, each is a
  /// message of its own, the leader's last, and the first is answered (its
  /// reply read) as soon as its text is translated, before the second's is;
  /// in one that does not, they are one message, answered together.
  @Test(arguments: [1, 2]) func requestsSharingABatchAreAnsweredAsTheirTextsAre(batchesInFlight: Int) throws {
    let runners = FakeRunners(limit: 1, batchesInFlight: batchesInFlight, perText: .milliseconds(1))
    let coalescer = TranslationCoalescer(runnersPerProvider: 1)
    // A full batch: the runner has no room until it is answered, so the two that come meanwhile share the next.
    let full = Array(repeating: "slow", count: coalescer.batchLimit)
    let first = Client(coalescer, runners, full)
    let one = Client(coalescer, runners, ["pause one"], after: .milliseconds(20))
    let two = Client(coalescer, runners, ["pause two"], after: .milliseconds(30))
    #expect(try first.value() == full.map { $0.uppercased() })
    #expect(try one.value() == ["PAUSE ONE"])
    #expect(try two.value() == ["PAUSE TWO"])
    let runner = try #require(runners.runners.first)
    let shared = try #require(runner.messages.firstIndex { $0.joined().sorted() == ["pause one", "pause two"] })
    let before = runner.messages[..<shared].reduce(0) { $0 + $1.count }
    if batchesInFlight > 1 {
      #expect(runner.messages[shared].count == 2)
      #expect(runner.translatedAtReceive[before] == full.count + 1, "the first was read after the second was translated")
    } else {
      #expect(runner.messages[shared].count == 1)
      #expect(runner.translatedAtReceive[before] == full.count + 2)
    }
  }

  /// A runner that may hold two batches is given a second client's batch
  /// while the first is in it; one that may not is never given two.
  @Test(arguments: [1, 2]) func aRunnerThatStreamsIsGivenItsNextBatchEarly(batchesInFlight: Int) throws {
    let runners = FakeRunners(limit: 1, batchesInFlight: batchesInFlight, perText: .microseconds(500))
    let coalescer = TranslationCoalescer(runnersPerProvider: 1)
    let lines = (0..<200).map { "line \($0)" }  // fewer than a batch: the runner has room behind them
    let first = Client(coalescer, runners, lines)
    let second = Client(coalescer, runners, ["another client"], after: .milliseconds(20))
    #expect(try second.value() == ["ANOTHER CLIENT"])
    #expect(try first.value() == lines.map { $0.uppercased() })
    #expect(runners.started.map(\.mostHeld) == [batchesInFlight])
  }

  /// One long request alone.
  struct LoneCase: CustomTestStringConvertible, Sendable {
    var shape: Shape
    /// The sizes of its batches, and how many batches its runner held as each was sent.
    var sizes: [Int]
    var heldAtSend: [Int]
    var testDescription: String { shape.name }
  }

  static let loneCases = [
    LoneCase(shape: shapes[0], sizes: [256, 256, 256, 232], heldAtSend: [1, 1, 1, 1]),
    LoneCase(shape: shapes[1], sizes: [128, 128, 128, 128, 128, 128, 128, 104], heldAtSend: [1, 2, 2, 2, 2, 2, 2, 2]),
    LoneCase(shape: shapes[2], sizes: [256, 256, 256, 232], heldAtSend: [1, 1, 1, 1]),
    LoneCase(shape: shapes[3], sizes: [128, 128, 128, 128, 128, 128, 128, 104], heldAtSend: [1, 2, 2, 2, 2, 2, 2, 2]),
  ]

  /// A long request alone keeps its runner's slots full: its thread sends
  /// its next batch before it reads the answer of the last (the runner holds
  /// two of its batches from the second on), in batches of half the limit,
  /// and stays on one runner. (The group learns its runners' depth from a
  /// first request.)
  @Test(arguments: loneCases) func aLongRequestAloneSendsItsNextBatchBeforeReadingTheLast(_ test: LoneCase) throws {
    let runners = FakeRunners(
      limit: test.shape.runners, batchesInFlight: test.shape.batchesInFlight, perText: .microseconds(20))
    let coalescer = TranslationCoalescer(runnersPerProvider: test.shape.runners)
    #expect(try Client(coalescer, runners, ["first"]).value() == ["FIRST"])
    let lines = (0..<1_000).map { "line \($0)" }
    #expect(try Client(coalescer, runners, lines).value() == lines.map { $0.uppercased() })
    let runner = try #require(runners.runners.first)
    #expect(runners.runners.count == 1)
    #expect(Array(runner.batches.dropFirst().map(\.count)) == test.sizes)
    #expect(Array(runner.heldAtSend.dropFirst()) == test.heldAtSend)
  }

  /// A single line sent while other clients' long requests are at work.
  struct FairnessCase: CustomTestStringConvertible, Sendable {
    var shape: Shape
    var long: (clients: Int, lines: Int)
    var testDescription: String { "\(shape.name): a line behind \(long.clients) × \(long.lines) lines" }
  }

  static let fairnessCases = shapes.map { FairnessCase(shape: $0, long: ($0.runners, 2_000)) }

  /// No client waits behind another's long request: the single line is
  /// answered while every long request is still at work, after its runner
  /// translated at most `batchLimit` texts ahead of it and its own batch
  /// (half the limit in a runner that holds two), and each long one gets
  /// exactly its own answers.
  @Test(arguments: fairnessCases) func noClientWaitsBehindAnotherClientsLongRequest(_ test: FairnessCase) throws {
    let runners = FakeRunners(
      limit: test.shape.runners, batchesInFlight: test.shape.batchesInFlight, perText: .microseconds(200))
    let coalescer = TranslationCoalescer(runnersPerProvider: test.shape.runners)
    let long = (0..<test.long.clients).map { client in
      let lines = (0..<test.long.lines).map { "client \(client) line \($0)" }
      return (lines, Client(coalescer, runners, lines))
    }
    final class Arrival: @unchecked Sendable { var translated: [(FakeRunner, Int)] = [] }
    let arrival = Arrival()
    let short = Client(
      coalescer, runners, ["a single line"], after: .milliseconds(30),
      arriving: { arrival.translated = runners.runners.map { ($0, $0.translatedCount) } })
    #expect(try short.value() == ["A SINGLE LINE"])
    let runner = try #require(runners.runners.first { $0.translated.contains("a single line") })
    let before = arrival.translated.first { $0.0 === runner }?.1 ?? 0
    let waited = try #require(runner.translated.firstIndex(of: "a single line")) - before
    #expect(waited <= coalescer.batchLimit + coalescer.batchLimit / test.shape.batchesInFlight)
    for (lines, client) in long {
      #expect(try client.value() == lines.map { $0.uppercased() })
      #expect(try #require(short.finishedAt) < #require(client.finishedAt), "the line waited for a long request")
    }
    // A batch holds at most an equal share of the batch limit per request while others wait.
    #expect(runners.batches.allSatisfy { $0.count <= coalescer.batchLimit })
  }

  /// How a request with a deadline fares beside another on the same runner.
  struct DeadlineCase: CustomTestStringConvertible, Sendable {
    var name: String
    var batchesInFlight: Int
    var first: (texts: [String], timeout: Duration)
    var second: (texts: [String], timeout: Duration)
    /// Each request's answers, or part of its error message.
    var firstOutcome: Outcome
    var secondOutcome: Outcome
    /// Runners given back not reusable (held an answer nobody read, or stopped).
    var discarded: Int
    var perText: Duration = .microseconds(500)
    var testDescription: String { name }

    enum Outcome: Sendable, Equatable {
      case answers([String])
      case error(containing: String)
    }
  }

  static let slow = Array(repeating: "slow", count: 400)
  /// Fewer than a batch: the runner has room behind them.
  static let slowFew = Array(repeating: "slow", count: 200)

  static let deadlineCases: [DeadlineCase] = [
    DeadlineCase(
      name: "queued behind a busy runner: fails as busy at its own deadline; the busy one is answered",
      batchesInFlight: 1, first: (slow, .seconds(30)), second: (["second"], .milliseconds(100)),
      firstOutcome: .answers(slow.map { $0.uppercased() }), secondOutcome: .error(containing: "stayed busy for 0.1 s"),
      discarded: 0),
    DeadlineCase(
      name: "sent to a runner behind another batch: fails as busy, not reached; the runner is replaced after the first",
      batchesInFlight: 2, first: (slowFew, .seconds(30)), second: (["second"], .milliseconds(100)),
      firstOutcome: .answers(slowFew.map { $0.uppercased() }),
      secondOutcome: .error(containing: "stayed busy for 0.1 s"), discarded: 1, perText: .milliseconds(1)),
    DeadlineCase(
      name: "its runner hangs: fails at its own deadline; the one behind it is served by a new runner",
      batchesInFlight: 1, first: (["hang"], .milliseconds(300)), second: (["after"], .seconds(30)),
      firstOutcome: .error(containing: "did not answer within 0.3 s"), secondOutcome: .answers(["AFTER"]), discarded: 0),
    DeadlineCase(
      name: "its runner hangs with another batch behind: that one is tried again and answered",
      batchesInFlight: 2, first: (["hang"], .milliseconds(300)), second: (["after"], .seconds(30)),
      firstOutcome: .error(containing: "did not answer within 0.3 s"), secondOutcome: .answers(["AFTER"]), discarded: 0),
    DeadlineCase(
      name: "a text that crashes the runner fails its own request only, one batch at a time",
      batchesInFlight: 1, first: (slow + ["crash"], .seconds(30)), second: (["fine"], .seconds(30)),
      firstOutcome: .error(containing: "ended"), secondOutcome: .answers(["FINE"]), discarded: 0),
    DeadlineCase(
      name: "a text that crashes the runner fails its own request only, two batches in the runner",
      batchesInFlight: 2, first: (slow + ["crash"], .seconds(30)), second: (["fine"], .seconds(30)),
      firstOutcome: .error(containing: "ended"), secondOutcome: .answers(["FINE"]), discarded: 0),
  ]

  @Test(arguments: deadlineCases) func eachRequestKeepsItsOwnDeadline(_ test: DeadlineCase) throws {
    let runners = FakeRunners(limit: 1, batchesInFlight: test.batchesInFlight, perText: test.perText)
    let coalescer = TranslationCoalescer(runnersPerProvider: 1)
    let first = Client(coalescer, runners, test.first.texts, timeout: test.first.timeout)
    let second = Client(coalescer, runners, test.second.texts, timeout: test.second.timeout, after: .milliseconds(20))
    for (client, expected) in [(first, test.firstOutcome), (second, test.secondOutcome)] {
      switch expected {
      case .answers(let answers): #expect(try client.value() == answers)
      case .error(let part):
        let message = try #require(client.failure())
        #expect(message.contains(part), "\(message)")
      }
    }
    #expect(runners.discarded == test.discarded)
  }

  /// A client that leaves: the runner working only for it is stopped (and
  /// replaced), and the next client is served.
  @Test(arguments: [1, 2]) func aClientThatLeavesStopsOnlyItsOwnRunner(batchesInFlight: Int) throws {
    let runners = FakeRunners(limit: 1, batchesInFlight: batchesInFlight, perText: .milliseconds(2))
    let coalescer = TranslationCoalescer(runnersPerProvider: 1)
    let error = LeavingClient.send(Array(repeating: "slow", count: 300), to: coalescer, runners: runners)
    #expect(error != nil, "the client that left was answered")
    let staying = Client(coalescer, runners, ["still here"])
    #expect(try staying.value() == ["STILL HERE"])
    #expect(runners.started.count == 2, "the runner working for the client that left was not stopped")
  }
}
