import System

/// A bounded pool of threads for work that blocks (a provider request, a
/// popover left open): a job goes to a thread that waits for work, or to a
/// new one while fewer than `limit` exist. A thread idle for `keepAlive`
/// ends, so a burst does not leave threads behind; a steady stream of calls
/// pays for no thread creation.
final class CallThreads: @unchecked Sendable {
  let limit: Int
  let keepAlive: Duration
  private let name: String
  private let condition = Condition()
  private var jobs: [@Sendable () -> Void] = []
  private var threads = 0
  private var waiting = 0

  init(name: String, limit: Int, keepAlive: Duration = .seconds(30)) {
    precondition(limit > 0)
    self.name = name
    self.limit = limit
    self.keepAlive = keepAlive
  }

  /// Runs `job` on a thread of the pool; false, and it is not run, when all
  /// `limit` threads are at work.
  func run(_ job: @escaping @Sendable () -> Void) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard waiting > jobs.count || threads < limit else { return false }
    jobs.append(job)
    if waiting >= jobs.count {
      condition.signal()
    } else {
      threads += 1
      DetachedThread.start(name: name) { [self] in work() }
    }
    return true
  }

  private func work() {
    condition.lock()
    while true {
      if !jobs.isEmpty {
        let job = jobs.removeFirst()
        condition.unlock()
        job()
        condition.lock()
        continue
      }
      waiting += 1
      let deadline = ContinuousClock.Instant.after(keepAlive)
      while jobs.isEmpty && !deadline.hasPassed { _ = condition.wait(until: deadline) }
      waiting -= 1
      if jobs.isEmpty {
        threads -= 1
        condition.unlock()
        return
      }
    }
  }
}
