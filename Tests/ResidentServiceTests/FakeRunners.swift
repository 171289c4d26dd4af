import Service
import System

@testable import ResidentService

/// A pool of `FakeRunner`s for `TranslationCoalescer`'s tests: up to
/// `limit` runners, the most recently used first; a runner given back not
/// reusable, or ended, is dropped (a new one starts for the next checkout).
final class FakeRunners: TranslatingRunners, @unchecked Sendable {
  static let provider = "org.example.fake"
  let key = RunnerPool.Key(path: "/fake", settings: "{}", generation: "1")
  var provider: String { Self.provider }
  let limit: Int
  let batchesInFlight: Int
  let perText: Duration
  private let condition = Condition()
  private var idle: [FakeRunner] = []
  private var live = 0
  /// Every runner started, and how many were given back not reusable.
  private(set) var started: [FakeRunner] = []
  private(set) var discarded = 0

  init(limit: Int, batchesInFlight: Int, perText: Duration) {
    self.limit = limit
    self.batchesInFlight = batchesInFlight
    self.perText = perText
  }

  func checkout(timeout: Duration) throws -> any BatchTranslating {
    let deadline = ContinuousClock.Instant.after(timeout)
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let runner = idle.popLast() { return runner }
      if live < limit {
        live += 1
        let runner = FakeRunner(batchesInFlight: batchesInFlight, perText: perText)
        started.append(runner)
        return runner
      }
      guard condition.wait(until: deadline) else { throw ServiceError.busy(provider: provider, after: timeout) }
    }
  }

  func checkin(_ runner: any BatchTranslating, reusable: Bool, alone: Bool) {
    let runner = runner as! FakeRunner
    condition.lock()
    defer { condition.unlock() }
    if reusable && !runner.hasEnded {
      idle.append(runner)
    } else {
      if !reusable { discarded += 1 }
      runner.interruption()
      live -= 1
    }
    condition.broadcast()
  }

  /// How many batches its runners were sent so far.
  var sentCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return started.reduce(0) { $0 + $1.sentCount }
  }

  /// Waits (up to 10 s) until more than `count` batches were sent: a request
  /// that arrives then finds the one before it in its runner.
  func waitForASend(after count: Int = 0) {
    let deadline = ContinuousClock.Instant.after(.seconds(10))
    while sentCount <= count && !deadline.hasPassed { Syscalls.sleep(for: .milliseconds(1)) }
  }

  /// Every runner started so far.
  var runners: [FakeRunner] {
    condition.lock()
    defer { condition.unlock() }
    return started
  }

  /// Every batch sent to any runner.
  var batches: [[String]] {
    condition.lock()
    defer { condition.unlock() }
    return started.flatMap(\.batches)
  }
}
