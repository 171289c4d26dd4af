import Foundation

/// The service's warm runners: per provider (bundle, files and settings) up
/// to `runnersPerProvider` runners, each serving one request at a time.
///
/// A request takes an idle runner (the most recently used, whose caches are
/// warmest), or starts one if the provider has fewer than the limit, or
/// waits, up to its deadline, for one to come back. A runner comes back
/// after every request, unless it ended or spoke out of turn, and is closed
/// once idle longer than `idleTimeout`. A request that finds its runner dead
/// is given a fresh one; a runner that dies during a request fails only that
/// request. When a provider's files or settings change, its older runners
/// are closed as they come back.
final class RunnerPool: @unchecked Sendable {
  /// Which runners are interchangeable.
  struct Key: Hashable, Sendable {
    var path: String
    var settings: String
    var generation: String
  }

  let runnersPerProvider: Int
  let idleTimeout: Double
  private let launcher = RunnerLauncher()
  private let condition = NSCondition()
  private var idle: [Key: [(runner: RunnerClient, since: UInt64)]] = [:]
  /// Runners idle, in use or being started, per key.
  private var live: [Key: Int] = [:]
  /// The newest key of each bundle path; runners of older ones are retired.
  private var current: [String: Key] = [:]
  private var isClosed = false

  init(runnersPerProvider: Int, idleTimeout: Double) {
    precondition(runnersPerProvider > 0 && idleTimeout > 0)
    self.runnersPerProvider = runnersPerProvider
    self.idleTimeout = idleTimeout
  }

  /// A runner for `resolution`, its deadline set to `timeout`, for the
  /// caller alone until it gives it back with `checkin`.
  func checkout(_ resolution: ResolutionCache.Resolution, timeout: Double) throws -> RunnerClient {
    let key = resolution.key
    let deadline = Date(timeIntervalSinceNow: timeout)
    var retired: [RunnerClient] = []
    defer { retired.forEach { $0.close() } }
    condition.lock()
    if current[key.path] != key {
      current[key.path] = key
      for (other, runners) in idle where other.path == key.path && other != key {
        retired += runners.map(\.runner)
        live[other, default: 0] -= runners.count
        idle[other] = nil
      }
    }
    while true {
      guard !isClosed else {
        condition.unlock()
        throw ServiceError.refused("the service is stopping")
      }
      if let (runner, _) = idle[key]?.popLast() {
        guard runner.isReady else {
          retired.append(runner)
          live[key, default: 0] -= 1
          continue
        }
        condition.unlock()
        runner.timeout = timeout
        return runner
      }
      if live[key, default: 0] < runnersPerProvider {
        live[key, default: 0] += 1
        condition.unlock()
        do {
          return try launcher.launch(resolution.bundle, timeout: timeout)
        } catch {
          condition.lock()
          live[key, default: 0] -= 1
          condition.broadcast()
          condition.unlock()
          throw error
        }
      }
      guard condition.wait(until: deadline) else {
        condition.unlock()
        throw ServiceError.busy(provider: resolution.bundle.identifier, seconds: timeout)
      }
    }
  }

  /// Takes a runner back: warm for the next request, or closed if it ended,
  /// is not quiet, belongs to an older version of its provider, or the pool is closing.
  func checkin(_ runner: RunnerClient, key: Key) {
    condition.lock()
    let keep = !isClosed && current[key.path] == key && runner.isReady
    if keep {
      idle[key, default: []].append((runner, Syscalls.monotonicNanoseconds()))
    } else {
      live[key, default: 0] -= 1
    }
    condition.broadcast()
    condition.unlock()
    if !keep { runner.close() }
  }

  /// Closes runners idle for longer than `idleTimeout`.
  func closeIdleRunners() {
    let cutoff = Deadline.before(idleTimeout)
    var expired: [RunnerClient] = []
    condition.lock()
    for (key, runners) in idle {
      let (old, young) = (runners.filter { $0.since <= cutoff }, runners.filter { $0.since > cutoff })
      guard !old.isEmpty else { continue }
      expired += old.map(\.runner)
      live[key, default: 0] -= old.count
      idle[key] = young.isEmpty ? nil : young
    }
    condition.unlock()
    expired.forEach { $0.close() }
  }

  /// Refuses further checkouts and closes every idle runner; runners in use
  /// are closed as they come back.
  func close() {
    condition.lock()
    isClosed = true
    let all = idle.values.flatMap { $0.map(\.runner) }
    idle = [:]
    condition.broadcast()
    condition.unlock()
    all.forEach { $0.close() }
  }

  /// How many runners are idle, in use or starting (for the log and tests).
  var liveRunners: Int {
    condition.lock()
    defer { condition.unlock() }
    return live.values.reduce(0, +)
  }
}
