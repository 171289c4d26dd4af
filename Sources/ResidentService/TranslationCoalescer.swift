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
/// Runners that stream (their provider takes texts while others are in
/// flight, `BatchTranslating.batchesInFlight` > 1) are given their next
/// batch before the last is answered, so the engine never drains between
/// batches: a group leads batches while it has fewer runners than
/// `runnersPerProvider`, or one of its runners has room for another batch.
/// A runner's batches are answered in the order they were sent; each
/// leader reads its own answer when the batches before it are answered.
/// That holds for one long request too: its thread sends its next batch
/// into its runner's free slot before it reads the answer of the last
/// (`translate`'s loop), as the threads of two requests would.
///
/// Fairness: a runner holds at most `batchLimit` texts (in batches of
/// `batchLimit / batchesInFlight` once the group knows its runners),
/// shared out in the order requests arrived, each taking at most an equal share before any takes more; a
/// request of 10,000 lines is sent a share at a time, so a request that
/// arrives behind it waits for the texts in the runner ahead of it and for
/// its own batch (at most `batchLimit` and a batch), not for all of them.
///
/// Deadlines: each request keeps its own. Its thread stops waiting at its
/// deadline (`busy` if none of its texts reached a runner yet); a batch's
/// runner gets the earliest deadline of its requests, so no leader answers
/// late, and the texts of requests whose deadline had not passed when a
/// batch failed are queued again. A batch that failed with more than one
/// request in it, or on a runner that held other batches, is not blamed on
/// all of them: each request's texts are tried again in a batch of their
/// own, one at a time, in a runner that holds no other, so a text that
/// crashes the provider fails only its own request. A
/// request whose texts wait in a runner behind another batch has not reached
/// the provider: at its deadline it fails as busy.
final class TranslationCoalescer: @unchecked Sendable {
  /// Requests that may share a batch: same runners, same language pair.
  struct GroupKey: Hashable {
    var runners: RunnerPool.Key
    var source: String
    var target: String
  }

  /// Groups kept while idle, at most: a group is looked up by every request,
  /// and making it anew for each (a lone client's group empties after every
  /// request) was two dictionary updates and an object a request.
  private static let idleGroupLimit = 64

  /// Runners one group uses at once: the pool's runners per provider.
  let runnersPerProvider: Int
  /// The most texts in one runner at once: in one batch, or shared by the batches a runner holds.
  let batchLimit: Int
  /// Guards everything below and every request's and group's state (a
  /// plain lock: the waits are each request's own semaphore).
  private let lock = Condition()
  private var groups: [GroupKey: Group] = [:]
  /// The semaphores of threads woken while the lock was held, signalled
  /// once it is let go (`unlock`): a thread woken under the lock ran into
  /// the lock its waker still held and slept on it again (1.2 context
  /// switches a request of the service's 4.3 with 8 clients, perf's
  /// `sched_switch`, 2026-12-02).
  private var wakes: [DispatchSemaphore] = []
  /// Requests served without a batch (`translateAlone`).
  private var servedAlone = 0

  init(runnersPerProvider: Int, batchLimit: Int = 256) {
    precondition(runnersPerProvider > 0 && batchLimit > 0)
    self.runnersPerProvider = runnersPerProvider
    self.batchLimit = batchLimit
  }

  /// How many requests were served without a batch (`translateAlone`).
  var requestsServedAlone: Int { lock.withLock { servedAlone } }

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
    /// Whether its thread leads a batch now (and so cannot be woken to lead another).
    fileprivate var isLeading = false
    /// Made when its thread first sleeps: a request served at once never does.
    fileprivate var wake: DispatchSemaphore?
    /// The group it is queued in, once it is.
    fileprivate var group: Group?

    fileprivate init(texts: [String], timeout: Duration) {
      self.texts = texts
      self.timeout = timeout
      deadline = .after(timeout)
      answers = []
      unanswered = texts.count
    }

    fileprivate var pending: Int {
      isAbandoned || failure != nil ? 0 : texts.count - next + retry.reduce(0) { $0 + $1.count }
    }
    fileprivate var isDone: Bool { failure != nil || unanswered == 0 }

    /// Takes `translations`, the answers to its texts `range`.
    fileprivate func answer(_ range: Range<Int>, with translations: ArraySlice<String>) {
      if unanswered == texts.count && range.count == texts.count {
        // Answered whole by one batch (most requests): no table of answers.
        answers = []
        whole = Array(translations)
        unanswered = 0
        return
      }
      if answers.isEmpty { answers = Array(repeating: nil, count: texts.count) }
      for (index, position) in range.enumerated() where answers[position] == nil {
        answers[position] = translations[translations.startIndex + index]
        unanswered -= 1
      }
    }

    /// Its translations, once every text is answered.
    fileprivate var translations: [String] { whole ?? answers.map { $0! } }
    /// Its translations when one batch answered every text.
    private var whole: [String]?
  }

  /// A request's share of a batch: texts `range` of `request`.
  fileprivate struct Slice {
    let request: Request
    let range: Range<Int>
  }

  fileprivate final class Group {
    var queue: [Request] = []
    /// The runners the group holds, and those being checked out for it (or
    /// held by a request served alone, `translateAlone`).
    var active: [Active] = []
    var starting = 0
    /// How many requests the last batch served, and how long it took.
    var lastBatch: (requests: Int, duration: Duration) = (1, .zero)
    /// How many batches its runners hold at once (`batchesInFlight`), once one was checked out.
    var depth = 1
    /// The batches being led (a few: at most the group's runners times their batches each).
    var batches: [Batch] = []
    /// The request whose thread was woken to lead into a free slot, until
    /// that thread runs: no other is woken for the same slot meanwhile (a
    /// second woken before the first ran found its texts in the first's
    /// batch and slept again: a third of these wake-ups, 0.25 a request with
    /// 8 clients).
    var summoned: Request?
    /// Whether nothing is queued, led or held: what it knew of its last batch is forgotten then.
    var isIdle: Bool { queue.isEmpty && batches.isEmpty && active.isEmpty && starting == 0 }
  }

  /// A runner a group holds, and its batches in the order they were sent.
  fileprivate final class Active {
    let runner: any BatchTranslating
    var batches: [Batch] = []
    /// It was stopped for callers that left.
    var interrupted = false
    /// A batch whose answer nobody will read was sent: it takes no more, and is replaced.
    var spoiled = false
    /// Why it failed, once it has: the batches still in it fail with it.
    var failure: (any Error)?
    /// It was taken for a request whose texts are isolated: it holds that request's batch alone.
    var isolating = false
    /// The most texts it holds at once (`batchLimit`), and how many it holds.
    let textLimit: Int
    var held: Int { batches.reduce(0) { $0 + $1.count } }
    init(_ runner: any BatchTranslating, textLimit: Int) {
      self.runner = runner
      self.textLimit = textLimit
    }
    var hasRoom: Bool {
      !interrupted && !spoiled && !isolating && failure == nil && batches.count < runner.batchesInFlight
        && held < textLimit
    }
    /// Whether `batch`'s answer is the next to read (those before it are read and dropped with it).
    func isTurn(of batch: Batch) -> Bool { batches.prefix { $0 !== batch }.allSatisfy(\.isAbandoned) }
  }

  fileprivate final class Batch {
    let slices: [Slice]
    let leader: Request
    /// How many requests it serves, and how many texts.
    let requests: Int
    let count: Int
    /// The earliest of its requests' deadlines: its answer is read by then.
    let deadline: ContinuousClock.Instant
    let started = ContinuousClock.now
    var runner: Active?
    /// Sent, and waiting for the batches before it in its runner to be answered.
    var waitsForTurn = false
    /// Its leader stopped waiting for its turn: its answer is read and dropped by the next reader.
    var isAbandoned = false
    /// Its runner held other batches while it was there.
    var sharedRunner = false
    /// The messages it is sent as, in order: ranges of `slices`, each answered on its own.
    var messages: [Range<Int>] = []
    /// How many of its messages were answered and handed out.
    var delivered = 0
    init(slices: [Slice], leader: Request, requests: Int, count: Int, deadline: ContinuousClock.Instant) {
      self.slices = slices
      self.leader = leader
      self.requests = requests
      self.count = count
      self.deadline = deadline
    }
    /// How many texts `message` holds.
    func count(of message: Range<Int>) -> Int { slices[message].reduce(0) { $0 + $1.range.count } }
    /// The slices not handed out yet.
    var undelivered: ArraySlice<Slice> { slices[(messages.prefix(delivered).last?.upperBound ?? 0)...] }
    /// Whether nobody waits for this batch's answers any more.
    var isOrphaned: Bool { slices.allSatisfy { $0.request.isAbandoned || $0.request.failure != nil } }
  }

  /// Whether `request`'s thread may lead a batch now. Its first: a runner can
  /// still be taken, or one held has room. While batches it led are in
  /// runners (`leading`), another only into a runner the group holds, with
  /// room: never a checkout, which could wait for a runner while others'
  /// answers wait behind its batches. A request whose texts are isolated
  /// leads one batch at a time, into a runner of its own; while one waits
  /// for a runner, no other batch is led, so that the next runner to come
  /// free is its (a long request would otherwise keep its runner for as long
  /// as it has texts).
  private func canLead(_ request: Request, leading: Int = 0, in group: Group) -> Bool {
    let canTake = group.active.count + group.starting < runnersPerProvider
    if request.isolated { return leading == 0 && canTake }
    if group.queue.contains(where: { $0.isolated && $0.pending > 0 && !$0.isLeading }) { return false }
    let room = group.active.contains(where: \.hasRoom)
    return leading > 0 ? room : canTake || room
  }

  /// Translates `texts` for one client with the runners of `resolution`, in
  /// batches with other clients' requests for the same pair. `cancellation`,
  /// fired from any thread (the client left), abandons the request.
  ///
  /// The thread is a loop, not a recursion: it sends a batch while it may
  /// (`canLead`), else reads the answer of the oldest batch it sent, else
  /// sleeps. So a request of many batches keeps its runner's next slot
  /// full while the batch before is translated; and it reads its batches'
  /// answers in the order it sent them, so whichever batch was sent first
  /// of all those not yet read is its own thread's next read: no thread
  /// waits for a turn that only it could give. It returns once every batch
  /// it sent is read: they may hold other requests' texts.
  func translate(
    _ texts: [String], from source: String, to target: String, runners: some TranslatingRunners,
    timeout: Duration, cancellation: Cancellation = Cancellation()
  ) throws -> [String] {
    let key = GroupKey(runners: runners.key, source: source, target: target)
    let request = Request(texts: texts, timeout: timeout)
    cancellation.onFire { [self] in abandon(request) }
    lock.lock()
    let group = group(for: key)
    if texts.count == 1 && group.isIdle && group.summoned == nil && !request.deadline.hasPassed {
      return try translateAlone(request, in: group, key: key, runners: runners, cancellation: cancellation)
    }
    request.group = group
    group.queue.append(request)
    for other in group.queue where other.isGathering { wake(other) }  // a leader gathering a batch counts the arrivals
    defer {
      if let place = group.queue.firstIndex(where: { $0 === request }) { group.queue.remove(at: place) }
      // Forgotten as the group was when it was made anew for each burst of requests.
      if group.isIdle { group.lastBatch = (1, .zero) }
      // It may have been the one woken to lead into a free slot.
      wakeNextLeader(in: group)
      unlock()
    }
    /// The batches this thread sent and has not read yet, oldest first.
    var led: [Batch] = []
    var gathered = false
    while true {
      if led.isEmpty {
        if request.isDone { break }
        if request.isAbandoned && request.running == 0 {
          request.failure = ServiceError.refused("the client left before its answer")
          break
        }
      }
      if request.pending > 0 && !request.deadline.hasPassed && canLead(request, leading: led.count, in: group) {
        // Gathering lets go of the lock: the slot and the texts are checked again after it.
        // Not for a runner at work that streams: its engine is busy with the
        // batch before, and takes these texts while it is, so waiting for
        // more would only leave it short of work.
        if led.isEmpty && !gathered && !group.active.contains(where: { $0.hasRoom && !$0.batches.isEmpty }) {
          gather(for: request, in: group)
          gathered = true
          continue
        }
        gathered = false
        request.isLeading = true
        if let batch = send(for: request, following: !led.isEmpty, key: key, group: group, runners: runners) {
          led.append(batch)
        }
        request.isLeading = !led.isEmpty
        continue
      }
      if !led.isEmpty {
        collect(led.removeFirst(), group: group, runners: runners)
        request.isLeading = !led.isEmpty
        continue
      }
      if request.deadline.hasPassed {
        expire(request, group: group, provider: runners.provider)
        break
      }
      sleep(request, until: request.deadline)
    }
    if let failure = request.failure { throw failure }
    return request.translations
  }

  /// The group of `key`, made if there is none. The lock is held.
  private func group(for key: GroupKey) -> Group {
    if let known = groups[key] { return known }
    if groups.count >= Self.idleGroupLimit { groups = groups.filter { !$0.value.isIdle } }
    let group = Group()
    groups[key] = group
    return group
  }

  /// Serves `request`, one text that found its group idle, without a batch:
  /// it takes a slot (`Group.starting`, counted by `canLead` and `send` as a
  /// runner the group holds, so later arrivals wait for it or take another
  /// runner), checks a runner out, sends, receives, gives the runner back
  /// and the slot after it, and wakes the next leader. A batch's queue entry,
  /// `Batch`, `Active`, slices and messages, made for every request, were
  /// 9,300 of the 36,800 instructions the service spent on a request of a
  /// client working alone (callgrind of `serve`, Rot13, `host-benchmark
  /// latency` 4,000 less 2,000 requests; 27,500 with this path).
  ///
  /// One text only: a request arriving meanwhile cannot share this runner
  /// (a runner that streams would take its batch early), and waits for at
  /// most one text; a request of several texts pays the batch's bookkeeping
  /// once for all of them.
  ///
  /// The guarantees are the batch's: its own deadline (busy if no runner came
  /// free in time, a deadline missed if the runner did not answer), the trust
  /// check of the pool's checkout, a client that leaves stops its runner (as
  /// `RequestHandler.withRunner` does), and a runner that failed is judged by
  /// the pool (`hasEnded`), one whose send failed is not reused. The lock is
  /// held on entry, not on return.
  private func translateAlone(
    _ request: Request, in group: Group, key: GroupKey, runners: some TranslatingRunners, cancellation: Cancellation
  ) throws -> [String] {
    group.starting += 1
    servedAlone += 1
    unlock()
    let runner: any BatchTranslating
    do {
      runner = try runners.checkout(timeout: max(request.deadline.remaining, .milliseconds(1)))
    } catch {
      lock.lock()
      giveSlotBack(in: group)
      throw Self.failure(error, of: request, provider: runners.provider)
    }
    var reusable = true
    let outcome = Result { () throws -> [String] in
      // A client that left before (its request abandoned) is told at once: the runner stops.
      cancellation.onFire(runner.interruption)
      guard !cancellation.isFired else { throw ServiceError.refused("the client left before its answer") }
      do {
        try runner.send([request.texts], from: key.source, to: key.target)
      } catch {
        reusable = false  // what it was sent before may be answered: nobody reads it
        throw error
      }
      return try runner.receive(count: 1, deadline: request.deadline)
    }
    // Cleared first: a client that leaves later does not stop a runner given back.
    cancellation.clear()
    let left = cancellation.isFired
    lock.lock()
    group.depth = runner.batchesInFlight
    let alone = group.queue.isEmpty && group.active.isEmpty && group.starting == 1
    unlock()
    runners.checkin(runner, reusable: reusable && !left, alone: alone)
    lock.lock()
    giveSlotBack(in: group)
    if left, case .failure = outcome { throw ServiceError.refused("the client left before its answer") }
    return try outcome.mapError { Self.failure($0, of: request, provider: runners.provider) }.get()
  }

  /// Gives back the slot `translateAlone` took: the next leader may take
  /// it. The lock is held on entry, not on return.
  private func giveSlotBack(in group: Group) {
    group.starting -= 1
    if group.isIdle { group.lastBatch = (1, .zero) }
    wakeNextLeader(in: group)
    unlock()
  }

  /// `error`, the failure of a request served alone, told with its own
  /// deadline as `finish` tells a batch's.
  private static func failure(_ error: any Error, of request: Request, provider: String) -> any Error {
    if (error as? HostError)?.kind == .deadlineExceeded {
      return RunnerError.deadlineExceeded(provider: provider, after: request.timeout).hostError
    }
    if case ServiceError.busy(let provider, _)? = error as? ServiceError {
      return ServiceError.busy(provider: provider, after: request.timeout)
    }
    return error
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
  /// Before it sleeps, a thread woken to lead that did not (its texts went
  /// in another's batch) wakes the next that may.
  private func sleep(_ request: Request, until deadline: ContinuousClock.Instant) {
    if let group = request.group, group.summoned == nil { wakeNextLeader(in: group) }
    let wake = request.wake ?? DispatchSemaphore(value: 0)
    request.wake = wake
    request.isWaiting = true
    unlock()
    _ = wake.wait(timeout: .now() + deadline.remaining.inSeconds)
    lock.lock()
    request.isWaiting = false
    if let group = request.group, group.summoned === request { group.summoned = nil }
  }

  /// Wakes `request`'s thread if it sleeps, once the lock is let go
  /// (`unlock`). (A wake-up that comes as it stops sleeping on its own
  /// leaves the semaphore signalled: its next sleep returns at once, and its
  /// loop looks again.) The lock is held.
  private func wake(_ request: Request) {
    guard request.isWaiting else { return }
    request.isWaiting = false
    if let wake = request.wake { wakes.append(wake) }
  }

  /// Lets go of the lock, then signals the threads woken while it was held.
  private func unlock() {
    guard !wakes.isEmpty else { return lock.unlock() }
    var due: [DispatchSemaphore] = []
    swap(&due, &wakes)
    lock.unlock()
    for wake in due { wake.signal() }
  }

  /// While a slot is free, wakes the first request (in arrival order) that
  /// has texts no batch holds and may lead them, to lead the next batch: one
  /// thread, not all of them, and none while one woken for it has not run
  /// yet (`Group.summoned`). The lock is held.
  private func wakeNextLeader(in group: Group) {
    guard group.summoned == nil,
      let next = group.queue.first(where: {
        $0.pending > 0 && $0.isWaiting && !$0.isLeading && canLead($0, in: group)
      })
    else { return }
    group.summoned = next
    wake(next)
  }

  /// Builds a batch led by `request`'s thread and sends it to a runner: one
  /// taken from the pool, or one the group holds with room (always one held
  /// when the batch is `following` others the thread sent and has not read).
  /// A runner never holds more than `batchLimit` texts, and one that holds
  /// several batches (`Group.depth`) is sent batches of `batchLimit / depth`:
  /// a request that comes while it is full waits for at most `batchLimit`
  /// texts and its own batch. Returns the batch, to be read by `collect`; nil if it
  /// failed before it was sent (its requests are told). The lock is held on
  /// entry and exit (and let go while a runner is checked out).
  private func send(
    for request: Request, following: Bool, key: GroupKey, group: Group, runners: some TranslatingRunners
  ) -> Batch? {
    var chosen: Active?
    if following || (!request.isolated && group.active.count + group.starting >= runnersPerProvider) {
      chosen = group.active.filter(\.hasRoom).min { $0.batches.count < $1.batches.count }
    }
    var limit = max(batchLimit / group.depth, 1)
    if let chosen { limit = min(limit, batchLimit - chosen.held) }
    let (slices, members) = batch(for: request, in: group, limit: limit)
    var deadline = request.deadline
    var count = 0
    for slice in slices {
      slice.request.running += slice.range.count
      deadline = min(deadline, slice.request.deadline)
      count += slice.range.count
    }
    let batch = Batch(slices: slices, leader: request, requests: members, count: count, deadline: deadline)
    group.batches.append(batch)
    if chosen == nil { group.starting += 1 }
    // Another batch may be led for what this one left.
    wakeNextLeader(in: group)
    do {
      let active: Active
      if let chosen {
        active = chosen
      } else {
        unlock()
        let runner: any BatchTranslating
        do {
          runner = try runners.checkout(timeout: max(deadline.remaining, .milliseconds(1)))
        } catch {
          lock.lock()
          group.starting -= 1
          throw error
        }
        lock.lock()
        group.starting -= 1
        active = Active(runner, textLimit: batchLimit)
        active.isolating = request.isolated
        group.depth = runner.batchesInFlight
        group.active.append(active)
      }
      batch.runner = active
      if let failure = active.failure { throw failure }
      active.batches.append(batch)
      if active.batches.count > 1 { active.batches.forEach { $0.sharedRunner = true } }
      // A runner that streams is sent each request's texts as a message of
      // its own, answered as soon as they are translated, and the leader's
      // last (they are translated last): each client's answer goes back as
      // soon as its text is out of the engine, as the bound's clients' do,
      // instead of when the batch's last is. Others take the batch as one.
      batch.messages = active.runner.batchesInFlight > 1 ? Self.messages(of: slices) : [slices.indices]
      // Sent under the lock: the runner's batches go in the order of `active.batches`.
      do {
        try active.runner.send(batch.messages.map { Self.texts(of: slices[$0]) }, from: key.source, to: key.target)
      } catch {
        // What it was sent before may be answered: nobody reads it.
        active.failure = active.failure ?? error
        active.spoiled = true
        throw error
      }
      if batch.isOrphaned { interruptOrphans(in: group) }
      batch.waitsForTurn = !active.isTurn(of: batch)
      return batch
    } catch {
      finish(batch, with: .failure(error), group: group, runners: runners)
      return nil
    }
  }

  /// Reads the answer of `batch`, sent by this thread, when the batches
  /// before it in its runner are answered (the lock let go meanwhile), and
  /// hands out what came back. The lock is held on entry and exit.
  private func collect(_ batch: Batch, group: Group, runners: some TranslatingRunners) {
    guard let active = batch.runner else { preconditionFailure("a batch collected before it was sent") }
    let outcome = Result { () throws -> Void in
      // The batches before it may have been read since it was sent (by this thread too).
      batch.waitsForTurn = !active.isTurn(of: batch) && active.failure == nil
      while batch.waitsForTurn {
        if let failure = active.failure { throw failure }
        if batch.deadline.hasPassed {
          batch.isAbandoned = true
          active.spoiled = true
          throw ServiceError.busy(provider: runners.provider, after: batch.leader.timeout)
        }
        sleep(batch.leader, until: batch.deadline)
        batch.waitsForTurn = !active.isTurn(of: batch) && active.failure == nil
      }
      if let failure = active.failure { throw failure }
      // Answers of batches abandoned before this one come first: read and dropped.
      let abandoned = active.batches.prefix { $0 !== batch }.filter(\.isAbandoned)
      unlock()
      defer { lock.lock() }
      do {
        for dropped in abandoned {
          for message in dropped.messages {
            _ = try active.runner.receive(count: dropped.count(of: message), deadline: batch.deadline)
          }
        }
        for message in batch.messages {
          let translations = try active.runner.receive(count: batch.count(of: message), deadline: batch.deadline)
          lock.lock()
          defer { unlock() }
          var offset = 0
          for slice in batch.slices[message] {
            slice.request.running -= slice.range.count
            slice.request.answer(slice.range, with: translations[offset..<offset + slice.range.count])
            offset += slice.range.count
            wake(slice.request)
          }
          batch.delivered += 1
        }
      } catch {
        lock.lock()
        active.failure = active.failure ?? error
        unlock()
        throw error
      }
    }
    finish(batch, with: outcome, group: group, runners: runners)
  }

  /// Ends `batch`: takes it out of its runner, and hands the requests of
  /// its messages not answered their failure, if it failed (texts of a batch
  /// shared with others are queued again, to be tried in a batch of their
  /// own). The lock is held on entry and exit.
  private func finish(
    _ batch: Batch, with outcome: Result<Void, any Error>, group: Group, runners: some TranslatingRunners
  ) {
    if let active = batch.runner { leave(batch, runner: active, group: group, runners: runners) }
    if let place = group.batches.firstIndex(where: { $0 === batch }) { group.batches.remove(at: place) }
    group.lastBatch = (batch.requests, ContinuousClock.now - batch.started)
    let undelivered = batch.undelivered
    for slice in undelivered { slice.request.running -= slice.range.count }
    if case .failure(let error) = outcome {
      let shared = batch.sharedRunner || batch.requests > 1
      for slice in undelivered where slice.request.failure == nil {
        if shared && !slice.request.deadline.hasPassed && !slice.request.isAbandoned {
          // Tried again alone: the failure may belong to another request's text.
          slice.request.isolated = true
          slice.request.retry.append(slice.range)
        } else if (error as? HostError)?.kind == .deadlineExceeded {
          // Told with the request's own deadline, not what was left of it when its batch began.
          slice.request.failure =
            RunnerError.deadlineExceeded(provider: runners.provider, after: slice.request.timeout).hostError
        } else if case ServiceError.busy(let provider, _)? = error as? ServiceError {
          slice.request.failure = ServiceError.busy(provider: provider, after: slice.request.timeout)
        } else {
          slice.request.failure = error
        }
      }
    }
    for slice in undelivered { wake(slice.request) }
    wakeNextLeader(in: group)
  }

  /// The messages a batch's `slices` are sent as when each request's go
  /// apart: one for each request's slices (together, as `batch(for:)` puts
  /// them).
  private static func messages(of slices: [Slice]) -> [Range<Int>] {
    var messages: [Range<Int>] = []
    var start = 0
    for index in slices.indices.dropFirst() where slices[index].request !== slices[index - 1].request {
      messages.append(start..<index)
      start = index
    }
    messages.append(start..<slices.count)
    return messages
  }

  /// The texts of `slices`, in order.
  private static func texts(of slices: ArraySlice<Slice>) -> [String] {
    if slices.count == 1, let only = slices.first, only.range.count == only.request.texts.count {
      return only.request.texts  // a request sent whole: its own array, not a copy
    }
    var texts: [String] = []
    texts.reserveCapacity(slices.reduce(0) { $0 + $1.range.count })
    for slice in slices { texts += slice.request.texts[slice.range] }
    return texts
  }

  /// Takes `batch` out of its runner: the next batch's leader may read its
  /// answer, and a runner left with none goes back to the pool. The lock is
  /// held on entry and exit (and let go for the check-in).
  private func leave(_ batch: Batch, runner active: Active, group: Group, runners: some TranslatingRunners) {
    // An abandoned batch's answer is still to come: it stays in line, read
    // and dropped by the next reader, and leaves with it.
    if !batch.isAbandoned, let place = active.batches.firstIndex(where: { $0 === batch }) {
      if active.batches[..<place].allSatisfy(\.isAbandoned) {
        active.batches.removeSubrange(...place)
      } else {
        active.batches.remove(at: place)
      }
    }
    if let next = active.batches.first(where: { !$0.isAbandoned }) {
      if next.waitsForTurn { wake(next.leader) }
      return
    }
    // Nobody will read what is left (answers of abandoned batches): the runner is replaced.
    if !active.batches.isEmpty { active.spoiled = true }
    group.active.removeAll { $0 === active }
    let reusable = !active.interrupted && !active.spoiled
    let alone = group.queue.count <= 1 && group.active.isEmpty && group.starting == 0
    unlock()
    runners.checkin(active.runner, reusable: reusable, alone: alone)
    lock.lock()
  }

  /// The slices of the next batch led by `leader`, at most `limit` texts:
  /// its own next texts first, then the other requests in the order they
  /// arrived, each up to an equal share of `limit` and then, while room is
  /// left, more; and how many requests have texts in it. A request whose
  /// texts are isolated goes alone. The slices come out with each request's
  /// together, the leader's last (`messages(of:)`).
  private func batch(for leader: Request, in group: Group, limit: Int) -> (slices: [Slice], members: Int) {
    if leader.isolated { return ([take(leader, upTo: limit)], 1) }
    func joins(_ other: Request) -> Bool { other !== leader && other.pending > 0 && !other.isolated }
    let members = 1 + group.queue.count(where: joins)
    let share = max(limit / members, 1)
    var room = limit
    var slices: [Slice] = []
    slices.reserveCapacity(members)
    var served = 0
    // The leader, then the others in arrival order (no array of them made: most batches have one member).
    for index in -1..<group.queue.count where room > 0 {
      let member = index < 0 ? leader : group.queue[index]
      guard index < 0 || joins(member) else { continue }
      let slice = take(member, upTo: min(share, room))
      room -= slice.range.count
      slices.append(slice)
      served += 1
    }
    for index in -1..<group.queue.count where room > 0 {
      let member = index < 0 ? leader : group.queue[index]
      guard member.pending > 0, index < 0 || (member !== leader && !member.isolated) else { continue }
      let slice = take(member, upTo: room)
      room -= slice.range.count
      slices.append(slice)
    }
    guard slices.count > 1 else { return (slices, served) }
    var ordered: [Slice] = []
    ordered.reserveCapacity(slices.count)
    for slice in slices where slice.request !== leader && !ordered.contains(where: { $0.request === slice.request }) {
      ordered += slices.filter { $0.request === slice.request }
    }
    ordered += slices.filter { $0.request === leader }
    return (ordered, served)
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
    // Texts waiting in a runner behind another batch have not reached the provider.
    let reached = group.batches.contains { batch in
      !batch.waitsForTurn && batch.slices.contains { $0.request === request }
    }
    let started = reached || request.unanswered < request.texts.count
    request.failure =
      started
      ? RunnerError.deadlineExceeded(provider: provider, after: request.timeout).hostError
      : ServiceError.busy(provider: provider, after: request.timeout)
    interruptOrphans(in: group)
  }

  private func abandon(_ request: Request) {
    lock.lock()
    defer { unlock() }
    request.isAbandoned = true
    if let group = request.group { interruptOrphans(in: group) }
    wake(request)
  }

  /// Stops the runners working only for requests that nobody waits for.
  private func interruptOrphans(in group: Group) {
    for active in group.active where !active.interrupted && !active.batches.isEmpty {
      guard active.batches.allSatisfy({ $0.isOrphaned || $0.isAbandoned }) else { continue }
      active.interrupted = true
      active.runner.interruption()
    }
  }
}
