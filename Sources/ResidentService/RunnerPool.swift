import Core
import FoundationEssentials
import Service
import System

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
///
/// A scene (an open popover) pins its runner for as long as it is open,
/// which may be minutes; so scene runners are counted apart, up to
/// `scenesPerProvider`, and never against `runnersPerProvider`: open
/// popovers cannot make headless requests for their provider wait. A scene
/// takes an idle runner when there is one, and its runner joins the idle
/// ones when the scene closes if the provider has room for it.
final class RunnerPool: @unchecked Sendable {
  /// Which runners are interchangeable.
  struct Key: Hashable, Sendable {
    let path: String
    let settings: String
    let generation: String
    /// The three hashed once: a request looks its key up in several tables,
    /// and `generation` names and stamps every file of the bundle.
    private let digest: Int

    init(path: String, settings: String, generation: String) {
      self.path = path
      self.settings = settings
      self.generation = generation
      var hasher = Hasher()
      hasher.combine(path)
      hasher.combine(settings)
      hasher.combine(generation)
      digest = hasher.finalize()
    }

    func hash(into hasher: inout Hasher) { hasher.combine(digest) }

    static func == (a: Key, b: Key) -> Bool {
      a.digest == b.digest && a.path == b.path && a.settings == b.settings && a.generation == b.generation
    }
  }

  let runnersPerProvider: Int
  let scenesPerProvider: Int
  let idleTimeout: Duration
  private let launcher = RunnerLauncher()
  private let condition = Condition()
  private var idle: [Key: [(runner: RunnerClient, since: ContinuousClock.Instant)]] = [:]
  /// Runners idle, in use for a request or being started for one, per key.
  private var live: [Key: Int] = [:]
  /// Runners held by scenes or being started for one, per key.
  private var scenes: [Key: Int] = [:]
  /// The newest key of each bundle path; runners of older ones are retired.
  private var current: [String: Key] = [:]
  /// The same keys (`current`'s values), found by their hash, made once:
  /// looking a key up by its path hashed the path, twice a request.
  private var currentKeys: Set<Key> = []
  /// The bundle each key was resolved to: what a replacement runner starts.
  private var bundles: [Key: ProviderBundle] = [:]
  private var isClosed = false

  init(runnersPerProvider: Int, scenesPerProvider: Int, idleTimeout: Duration) {
    precondition(runnersPerProvider > 0 && scenesPerProvider > 0 && idleTimeout > .zero)
    self.runnersPerProvider = runnersPerProvider
    self.scenesPerProvider = scenesPerProvider
    self.idleTimeout = idleTimeout
  }

  /// A runner for `resolution`, its deadline set to `timeout`, for the
  /// caller alone until it gives it back with `checkin` (with the same `forScene`).
  ///
  /// Whether an idle runner spoke out of turn is asked of the kernel (a
  /// `poll` of its socket), unless `quiet` names it as it was given back
  /// (`checkouts` unchanged since) and the caller's own `poll` found its
  /// socket with nothing to read after the request arrived (`RecentRunner`).
  func checkout(
    _ resolution: ResolutionCache.Resolution, timeout: Duration, forScene: Bool = false,
    quiet: (runner: RunnerClient, checkouts: Int)? = nil
  ) throws -> RunnerClient {
    let key = resolution.key
    let deadline = ContinuousClock.Instant.after(timeout)
    var retired: [RunnerClient] = []
    defer { retired.forEach { $0.close() } }
    condition.lock()
    if !currentKeys.contains(key) {
      if let previous = current.updateValue(key, forKey: key.path) { currentKeys.remove(previous) }
      currentKeys.insert(key)
      bundles = bundles.filter { $0.key.path != key.path }
      bundles[key] = resolution.bundle
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
        let foundQuiet = quiet.map { $0.runner === runner && $0.checkouts == runner.checkouts } ?? false
        guard runner.isReady(socketFoundQuiet: foundQuiet) else {
          retired.append(runner)
          live[key, default: 0] -= 1
          continue
        }
        if forScene {
          live[key, default: 0] -= 1
          scenes[key, default: 0] += 1
        }
        runner.checkouts += 1
        condition.unlock()
        runner.timeout = timeout
        return runner
      }
      let (count, limit) = forScene ? (scenes[key, default: 0], scenesPerProvider) : (live[key, default: 0], runnersPerProvider)
      if count < limit {
        adjust(key, forScene: forScene, by: 1)
        condition.unlock()
        do {
          return try launcher.launch(resolution.bundle, timeout: timeout)
        } catch {
          condition.lock()
          adjust(key, forScene: forScene, by: -1)
          condition.broadcast()
          condition.unlock()
          throw error
        }
      }
      guard condition.wait(until: deadline) else {
        condition.unlock()
        throw ServiceError.busy(provider: resolution.bundle.identifier, after: timeout)
      }
    }
  }

  /// Takes a runner back: warm for the next request, or closed if it ended,
  /// is not `reusable` (its client left and it was
  /// interrupted), belongs to an older version of its provider, or the pool is closing.
  /// A scene's runner is kept only while the provider has fewer than `runnersPerProvider`.
  ///
  /// A runner stopped because its client left (not `reusable`) is replaced
  /// at once, in the background, by a fresh one that waits idle: the next
  /// request finds a warm runner instead of paying for a cold start.
  /// Returns how many times the runner was handed out (`RunnerClient.checkouts`), read under the lock.
  @discardableResult
  func checkin(_ runner: RunnerClient, key: Key, forScene: Bool = false, reusable: Bool = true) -> Int {
    condition.lock()
    let checkouts = runner.checkouts
    if forScene {
      scenes[key, default: 0] -= 1
      live[key, default: 0] += 1
    }
    let room = !forScene || live[key, default: 0] <= runnersPerProvider
    // Whether it spoke out of turn is asked at checkout (`isReady`), which
    // must ask anyway: one `poll` per request, not two.
    let isCurrent = currentKeys.contains(key)
    let keep = reusable && room && !isClosed && isCurrent && !runner.hasEnded
    let replacement = !reusable && room && !isClosed && isCurrent ? bundles[key] : nil
    if keep {
      idle[key, default: []].append((runner, .now))
    } else if replacement == nil {
      live[key, default: 0] -= 1
    }
    condition.broadcast()
    condition.unlock()
    if !keep { runner.close() }
    // The replacement keeps the stopped runner's place in `live`.
    if let replacement { replace(key, with: replacement) }
    return checkouts
  }

  /// Starts a runner for `key` in the background and adds it to the idle
  /// ones; one that cannot start gives its place up.
  private func replace(_ key: Key, with bundle: ProviderBundle) {
    DetachedThread.start(name: "runner-replacement") { [self] in
      let runner = try? launcher.launch(bundle, timeout: .seconds(30))
      condition.lock()
      let keep = runner != nil && !isClosed && currentKeys.contains(key)
      if keep, let runner {
        idle[key, default: []].append((runner, .now))
      } else {
        live[key, default: 0] -= 1
      }
      condition.broadcast()
      condition.unlock()
      if !keep { runner?.close() }
    }
  }

  /// Closes runners idle for longer than `idleTimeout`.
  func closeIdleRunners() {
    let cutoff = ContinuousClock.now - idleTimeout
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
    return live.values.reduce(0, +) + scenes.values.reduce(0, +)
  }

  private func adjust(_ key: Key, forScene: Bool, by change: Int) {
    if forScene { scenes[key, default: 0] += change } else { live[key, default: 0] += change }
  }
}
