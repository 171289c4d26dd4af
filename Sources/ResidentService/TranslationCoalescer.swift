import Dispatch
import FoundationEssentials
import Service
import System

/// Headless translate requests for the same runners and language pair,
/// served together: while the provider's runners are busy, the requests that
/// arrive wait in one queue, and the next runner that comes free translates
/// them as one batch. A provider that pipelines a batch (Apertium keeps its
/// pipelines full) then serves eight clients sending one sentence each about
/// as fast as one client sending all of them at once, where one runner per
/// request left most of the pipelines' stages idle.
///
/// No extra thread: the connection thread of a waiting request leads a batch
/// (checks a runner out, sends the batch, hands each request its answers)
/// when one of the group's `slots` is free, and a batch always holds some of
/// its leader's own texts, so every request with texts left has a thread
/// that will lead them. Each waiting thread is woken only when something
/// concerns it (its answers came, it may lead into a free slot, a request
/// it gathers for arrived), never all of them at once: with eight clients
/// on a machine whose cores the provider keeps busy, waking every waiting
/// thread at each arrival and each answer cost more context switches than
/// the requests themselves.
///
/// Fairness: a batch holds at most `batchLimit` texts, shared out in the
/// order requests arrived, each taking at most an equal share before any
/// takes more; a request of 10,000 lines is sent a share at a time, so a
/// request that arrives behind it waits for one batch, not for all of them.
///
/// Deadlines: each request keeps its own. Its thread stops waiting at its
/// deadline (`busy` if none of its texts reached a runner yet); a batch's
/// runner gets the earliest deadline of its requests, so no leader answers
/// late, and the texts of requests whose deadline had not passed when a
/// batch failed are queued again. A batch that failed with more than one
/// request in it is not blamed on all of them: each request's texts are
/// tried again in a batch of their own, so a text that crashes the provider
/// fails only its own request.
final class TranslationCoalescer: @unchecked Sendable {
  /// Requests that may share a batch: same runners, same language pair.
  struct GroupKey: Hashable {
    var runners: RunnerPool.Key
    var source: String
    var target: String
  }

  /// Batches of one group in a runner at once: the pool's runners per provider.
  let slots: Int
  /// The most texts in one batch.
  let batchLimit: Int
  /// Guards everything below and every request's and group's state (a
  /// plain lock: the waits are each request's own semaphore).
  private let lock = Condition()
  private var groups: [GroupKey: Group] = [:]

  init(slots: Int, batchLimit: Int = 256) {
    precondition(slots > 0 && batchLimit > 0)
    self.slots = slots
    self.batchLimit = batchLimit
  }

  /// One client's request while it is served.
  final class Request: @unchecked Sendable {
    fileprivate let texts: [String]
    fileprivate let timeout: Duration
    fileprivate let deadline: ContinuousClock.Instant
    /// Texts before this index have been given to a batch (or answered).
    fileprivate var next = 0
    /// Texts given to a batch that failed, to be sent again.
    fileprivate var retry: [Range<Int>] = []
    fileprivate var answers: [String?]
    fileprivate var unanswered: Int
    fileprivate var failure: (any Error)?
    /// Its client left, or its deadline passed: nothing more is sent for it.
    fileprivate var isAbandoned = false
    /// After a batch with others failed: its texts go in batches of their own.
    fileprivate var isolated = false
    /// Texts of this request in a runner now.
    fileprivate var running = 0
    /// Whether its thread sleeps on `wake`, and whether it gathers a batch (counts arrivals).
    fileprivate var isWaiting = false
    fileprivate var isGathering = false
    fileprivate let wake = DispatchSemaphore(value: 0)

    fileprivate init(texts: [String], timeout: Duration) {
      self.texts = texts
      self.timeout = timeout
      deadline = .after(timeout)
      answers = Array(repeating: nil, count: texts.count)
      unanswered = texts.count
    }

    fileprivate var pending: Int {
      isAbandoned || failure != nil ? 0 : texts.count - next + retry.reduce(0) { $0 + $1.count }
    }
    fileprivate var isDone: Bool { failure != nil || unanswered == 0 }
  }

  /// A request's share of a batch: texts `range` of `request`.
  private struct Slice {
    let request: Request
    let range: Range<Int>
  }

  private final class Group {
    var queue: [Request] = []
    var busySlots = 0
    /// How many requests the last batch served, and how long it took.
    var lastBatch: (requests: Int, duration: Duration) = (1, .zero)
    /// The interruptions of the runners at work for the group, by batch.
    var batches: [ObjectIdentifier: Batch] = [:]
  }

  private final class Batch {
    let slices: [Slice]
    var interruption: (@Sendable () -> Void)?
    var interrupted = false
    init(slices: [Slice]) { self.slices = slices }
    /// Whether nobody waits for this batch's answers any more.
    var isOrphaned: Bool { slices.allSatisfy { $0.request.isAbandoned || $0.request.failure != nil } }
  }

  /// Translates `texts` for one client with the runners of `resolution`, in
  /// batches with other clients' requests for the same pair. `cancellation`,
  /// fired from any thread (the client left), abandons the request.
  func translate(
    _ texts: [String], from source: String, to target: String, resolution: ResolutionCache.Resolution,
    timeout: Duration, pool: RunnerPool, cancellation: Cancellation = Cancellation()
  ) throws -> [String] {
    let key = GroupKey(runners: resolution.key, source: source, target: target)
    let request = Request(texts: texts, timeout: timeout)
    cancellation.onFire { [self] in abandon(request, in: key) }
    lock.lock()
    let group = groups[key] ?? Group()
    groups[key] = group
    group.queue.append(request)
    for other in group.queue where other.isGathering { wake(other) }  // a leader gathering a batch counts the arrivals
    defer {
      group.queue.removeAll { $0 === request }
      if group.queue.isEmpty && group.busySlots == 0 { groups[key] = nil }
      // It may have been the one woken to lead into a free slot.
      wakeNextLeader(in: group)
      lock.unlock()
    }
    var gathered = false
    while !request.isDone {
      if request.isAbandoned && request.running == 0 {
        request.failure = ServiceError.refused("the client left before its answer")
        break
      }
      if request.pending > 0 && group.busySlots < slots {
        // Gathering lets go of the lock: the slot and the texts are checked again after it.
        if !gathered {
          gather(for: request, in: group)
          gathered = true
          continue
        }
        gathered = false
        lead(request, key: key, group: group, resolution: resolution, pool: pool)
        continue
      }
      if request.deadline.hasPassed {
        expire(request, group: group, provider: resolution.bundle.identifier)
        break
      }
      sleep(request, until: request.deadline)
    }
    if let failure = request.failure { throw failure }
    return request.answers.map { $0! }
  }

  /// Before leading a batch while clients are working concurrently (the last
  /// batch served several), waits a moment for as many requests as it served:
  /// their clients, just answered, are sending their next ones. Without this
  /// the first of them would take the free runner alone, and the batches
  /// would fall apart into runs of one. At most half the last batch's time,
  /// and never for a client working alone. The lock is held on entry and exit.
  private func gather(for request: Request, in group: Group) {
    let expected = group.lastBatch.requests
    guard expected > 1 else { return }
    let until = ContinuousClock.Instant.after(min(group.lastBatch.duration / 2, .milliseconds(2)))
    request.isGathering = true
    defer { request.isGathering = false }
    while group.queue.count(where: { $0.pending > 0 }) < expected && !until.hasPassed && !request.deadline.hasPassed {
      sleep(request, until: min(until, request.deadline))
    }
  }

  /// Lets go of the lock until `request` is woken or `deadline` passes, and takes it again.
  private func sleep(_ request: Request, until deadline: ContinuousClock.Instant) {
    request.isWaiting = true
    lock.unlock()
    _ = request.wake.wait(timeout: .now() + deadline.remaining.inSeconds)
    lock.lock()
    request.isWaiting = false
  }

  /// Wakes `request`'s thread if it sleeps. (A wake-up that comes as it
  /// stops sleeping on its own leaves the semaphore signalled: its next
  /// sleep returns at once, and its loop looks again.) The lock is held.
  private func wake(_ request: Request) {
    guard request.isWaiting else { return }
    request.isWaiting = false
    request.wake.signal()
  }

  /// While a slot is free, wakes the first request (in arrival order) that
  /// has texts no batch holds, to lead the next batch: one thread, not all
  /// of them. The lock is held.
  private func wakeNextLeader(in group: Group) {
    guard group.busySlots < slots, let next = group.queue.first(where: { $0.pending > 0 && $0.isWaiting }) else { return }
    wake(next)
  }

  /// Builds a batch led by `request`'s thread, runs it with the lock
  /// released, and hands out what came back. The lock is held on entry and exit.
  private func lead(
    _ request: Request, key: GroupKey, group: Group, resolution: ResolutionCache.Resolution, pool: RunnerPool
  ) {
    let slices = batch(for: request, in: group)
    let batch = Batch(slices: slices)
    let id = ObjectIdentifier(batch)
    group.busySlots += 1
    group.batches[id] = batch
    for slice in slices { slice.request.running += slice.range.count }
    // Another slot may be free for what this batch left.
    wakeNextLeader(in: group)
    let deadline = slices.map(\.request.deadline).min()!
    let started = ContinuousClock.now
    lock.unlock()

    var outcome: Result<[String], any Error>
    do {
      let runner = try pool.checkout(resolution, timeout: max(deadline.remaining, .milliseconds(1)))
      lock.lock()
      batch.interruption = runner.interruption
      let orphaned = batch.isOrphaned
      if orphaned { batch.interrupted = true }
      lock.unlock()
      if orphaned { runner.interruption() }
      defer {
        // A runner stopped for callers that left is replaced by the pool.
        lock.lock()
        let interrupted = batch.interrupted
        lock.unlock()
        pool.checkin(runner, key: resolution.key, reusable: !interrupted)
      }
      let texts = slices.flatMap { Array($0.request.texts[$0.range]) }
      outcome = .success(try runner.translate(texts, from: key.source, to: key.target))
    } catch {
      outcome = .failure(error)
    }

    lock.lock()
    group.busySlots -= 1
    group.batches[id] = nil
    group.lastBatch = (Set(slices.map { ObjectIdentifier($0.request) }).count, ContinuousClock.now - started)
    for slice in slices { slice.request.running -= slice.range.count }
    switch outcome {
    case .success(let translations):
      var offset = 0
      for slice in slices {
        for (index, position) in slice.range.enumerated() where slice.request.answers[position] == nil {
          slice.request.answers[position] = translations[offset + index]
          slice.request.unanswered -= 1
        }
        offset += slice.range.count
      }
    case .failure(let error):
      let shared = Set(slices.map { ObjectIdentifier($0.request) }).count > 1
      for slice in slices where slice.request.failure == nil {
        if shared && !slice.request.deadline.hasPassed && !slice.request.isAbandoned {
          // Tried again alone: the failure may belong to another request's text.
          slice.request.isolated = true
          slice.request.retry.append(slice.range)
        } else if (error as? HostError)?.kind == .deadlineExceeded {
          // Told with the request's own deadline, not what was left of it when its batch began.
          slice.request.failure =
            RunnerError.deadlineExceeded(
              provider: resolution.bundle.identifier, after: slice.request.timeout
            ).hostError
        } else if case ServiceError.busy(let provider, _)? = error as? ServiceError {
          slice.request.failure = ServiceError.busy(provider: provider, after: slice.request.timeout)
        } else {
          slice.request.failure = error
        }
      }
    }
    for slice in slices { wake(slice.request) }
    wakeNextLeader(in: group)
  }

  /// The slices of the next batch led by `leader`: its own next texts first,
  /// then the other requests in the order they arrived, each up to an equal
  /// share of `batchLimit` and then, while room is left, more. A request
  /// whose texts are isolated goes alone.
  private func batch(for leader: Request, in group: Group) -> [Slice] {
    if leader.isolated { return [take(leader, upTo: batchLimit)] }
    let others = group.queue.filter { $0 !== leader && $0.pending > 0 && !$0.isolated }
    let members = [leader] + others
    let share = max(batchLimit / members.count, 1)
    var room = batchLimit
    var slices: [Slice] = []
    for member in members where room > 0 {
      let slice = take(member, upTo: min(share, room))
      room -= slice.range.count
      slices.append(slice)
    }
    for member in members where room > 0 && member.pending > 0 {
      let slice = take(member, upTo: room)
      room -= slice.range.count
      slices.append(slice)
    }
    return slices
  }

  /// The next texts of `request`, at most `count`: those of a failed batch first.
  private func take(_ request: Request, upTo count: Int) -> Slice {
    if let first = request.retry.first {
      let range = first.lowerBound..<min(first.upperBound, first.lowerBound + count)
      if range.upperBound == first.upperBound {
        request.retry.removeFirst()
      } else {
        request.retry[0] = range.upperBound..<first.upperBound
      }
      return Slice(request: request, range: range)
    }
    let range = request.next..<min(request.texts.count, request.next + count)
    request.next = range.upperBound
    return Slice(request: request, range: range)
  }

  /// A request whose deadline passed: it sends nothing more, and fails as
  /// busy if none of its texts reached a runner, or as a deadline missed.
  private func expire(_ request: Request, group: Group, provider: String) {
    request.isAbandoned = true
    let started = request.running > 0 || request.unanswered < request.texts.count
    request.failure =
      started
      ? RunnerError.deadlineExceeded(provider: provider, after: request.timeout).hostError
      : ServiceError.busy(provider: provider, after: request.timeout)
    interruptOrphans(in: group)
  }

  private func abandon(_ request: Request, in key: GroupKey) {
    lock.lock()
    defer { lock.unlock() }
    request.isAbandoned = true
    if let group = groups[key] { interruptOrphans(in: group) }
    wake(request)
  }

  /// Stops the runners working only for requests that nobody waits for.
  private func interruptOrphans(in group: Group) {
    for batch in group.batches.values where !batch.interrupted && batch.isOrphaned {
      guard let interruption = batch.interruption else { continue }
      batch.interrupted = true
      interruption()
    }
  }
}
