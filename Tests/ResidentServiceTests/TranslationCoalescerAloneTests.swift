import Dispatch
import Glibc
import Service
import System
import Testing

@testable import ResidentService

/// A request of one text that finds its group idle, served without a batch
/// (`TranslationCoalescer.translateAlone`): counted as such, and with the
/// batch's guarantees (the slot counted, deadlines, a client that leaves).
@Suite struct TranslationCoalescerAloneTests {
  typealias Client = TranslationCoalescerTests.Client

  /// A client working alone: every request is served without a batch, on one runner kept warm.
  @Test func aClientWorkingAloneIsServedWithoutBatches() throws {
    let runners = FakeRunners(limit: 2, batchesInFlight: 2, perText: .microseconds(100))
    let coalescer = TranslationCoalescer(runnersPerProvider: 2)
    for sentence in 0..<5 {
      #expect(try Client(coalescer, runners, ["sentence \(sentence)"]).value() == ["SENTENCE \(sentence)"])
    }
    #expect(coalescer.requestsServedAlone == 5)
    #expect(runners.runners.count == 1)
    #expect(runners.batches == (0..<5).map { ["sentence \($0)"] })
    #expect(runners.discarded == 0)
  }

  /// Requests that are not served alone: several texts (their batch's cost
  /// is shared), or a group at work.
  @Test func onlyOneTextInAnIdleGroupIsServedAlone() throws {
    let runners = FakeRunners(limit: 1, batchesInFlight: 1, perText: .microseconds(100))
    let coalescer = TranslationCoalescer(runnersPerProvider: 1)
    #expect(try Client(coalescer, runners, ["one", "two"]).value() == ["ONE", "TWO"])
    let first = Client(coalescer, runners, ["pause first"])
    let second = Client(coalescer, runners, ["second"], arriving: { runners.waitForASend(after: 1) })
    #expect(try first.value() == ["PAUSE FIRST"])
    #expect(try second.value() == ["SECOND"])
    #expect(coalescer.requestsServedAlone == 1)
  }

  /// A request arriving while one is served alone.
  struct ArrivalCase: CustomTestStringConvertible, Sendable {
    var name: String
    var runners: Int
    var batchesInFlight: Int
    /// Runners started, and whether the second was answered before the first.
    var started: Int
    var secondFirst: Bool
    var testDescription: String { name }
  }

  static let arrivalCases = [
    ArrivalCase(name: "one runner: it waits for the slot", runners: 1, batchesInFlight: 1, started: 1, secondFirst: false),
    ArrivalCase(
      name: "one runner that streams: it waits for the slot", runners: 1, batchesInFlight: 2, started: 1, secondFirst: false),
    ArrivalCase(name: "two runners: it takes the other", runners: 2, batchesInFlight: 1, started: 2, secondFirst: true),
  ]

  /// The slot of a request served alone is counted: a request arriving
  /// meanwhile waits for it when the group may hold no other runner, or takes
  /// another; both get their own answers.
  @Test(arguments: arrivalCases) func aRequestArrivingMeanwhileWaitsOrTakesAnotherRunner(_ test: ArrivalCase) throws {
    let runners = FakeRunners(limit: 2, batchesInFlight: test.batchesInFlight, perText: .microseconds(100))
    let coalescer = TranslationCoalescer(runnersPerProvider: test.runners)
    let first = Client(coalescer, runners, ["pause first"])  // 100 ms in its runner
    let second = Client(coalescer, runners, ["second"], arriving: { runners.waitForASend() })
    #expect(try first.value() == ["PAUSE FIRST"])
    #expect(try second.value() == ["SECOND"])
    #expect(coalescer.requestsServedAlone == 1)
    #expect(runners.runners.count == test.started)
    #expect(runners.runners.allSatisfy { $0.mostHeld == 1 })
    #expect((try #require(second.finishedAt) < #require(first.finishedAt)) == test.secondFirst)
  }

  /// No runner came free by its deadline (another pair's request holds the
  /// provider's only one): busy, told with its own deadline.
  @Test func aRequestServedAloneFailsAsBusyAtItsOwnDeadline() throws {
    let runners = FakeRunners(limit: 1, batchesInFlight: 1, perText: .milliseconds(1))
    let coalescer = TranslationCoalescer(runnersPerProvider: 1)
    let long = Client(coalescer, runners, Array(repeating: "slow", count: 300))
    runners.waitForASend()
    let error = #expect(throws: ServiceError.self) {
      try coalescer.translate(["other pair"], from: "en", to: "fr", runners: runners, timeout: .milliseconds(100))
    }
    #expect(error.map { "\($0)" }?.contains("stayed busy for 0.1 s") == true, "\(String(describing: error))")
    #expect(try long.value().count == 300)
    #expect(coalescer.requestsServedAlone == 1)
  }

  /// A client that leaves while its text is in the runner: the runner is
  /// stopped and replaced, and the next client is served.
  @Test func aClientThatLeavesStopsTheRunnerOfItsRequestServedAlone() throws {
    let runners = FakeRunners(limit: 1, batchesInFlight: 1, perText: .microseconds(100))
    let coalescer = TranslationCoalescer(runnersPerProvider: 1)
    let error = LeavingClient.send(["hang"], to: coalescer, runners: runners)
    #expect(error?.contains("the client left") == true, "\(error ?? "answered")")
    #expect(try Client(coalescer, runners, ["still here"]).value() == ["STILL HERE"])
    #expect(runners.runners.count == 2, "the runner working for the client that left was not stopped")
    #expect(runners.discarded == 1)
    #expect(coalescer.requestsServedAlone == 2)
  }
}
