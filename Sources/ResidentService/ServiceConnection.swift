import Core
import FoundationEssentials
import RunnerProtocol
import Service
import System

/// One client's connection to the service, served on its own thread: a
/// hello, then requests answered one at a time, in order.
///
/// Nothing the client sends is trusted: a request must arrive whole within
/// `requestArrival`, fit in a frame, and decode; anything else is
/// answered with a `badRequest` failure (and the connection closed when the
/// stream can no longer be followed). A scene pins a runner to the connection
/// until the scene is closed or the client goes; either way the runner goes
/// back to the pool (or is closed), never lost. A client that leaves while a
/// runner works for it has that runner stopped and closed (`ClientWatcher`).
final class ServiceConnection {
  private let channel: FrameChannel
  private let server: ServiceServer
  private var greeted = false
  /// Set when the client's hello named a context other than the service's:
  /// its requests would not get the direct path's answers, so none is served.
  private var servesOtherContext = false
  /// The runner a scene holds, and its key.
  private var pinned: (runner: RunnerClient, key: RunnerPool.Key)?
  private let watcher: ClientWatcher
  private var handler: RequestHandler { RequestHandler(server: server) }
  /// The provider references of the last requests, the latest first (two
  /// at most: a client that alternates two providers), and how they
  /// resolved; only those watched (`ResolutionCache.Resolution.watch`).
  private var recent: [(reference: String?, resolution: ResolutionCache.Resolution)] = []
  /// Which of `recent` (bit `i`: `recent[i]`) the wait for the request being
  /// served found with nothing to read after the request arrived: those are
  /// current with no `read` of their own (`ResolutionCache.Resolution.isCurrent`).
  private var quiet: UInt64 = 0
  private static let recentLimit = 2
  /// The runner this connection's thread gave back last, looked at in the same wait.
  private let recentRunner = RecentRunner()
  /// Fired when the client leaves during a request; one per connection,
  /// made again only after it fired.
  private var cancellation = Cancellation()
  private var fireCancellation: @Sendable () -> Void

  init(fd: FileDescriptor, server: ServiceServer) {
    channel = FrameChannel(fd: fd)
    watcher = ClientWatcher(client: fd)
    self.server = server
    fireCancellation = cancellation.fire
  }

  /// Serves requests until the client leaves, the connection stays idle
  /// longer than `connectionIdleTimeout` (with no scene open), it is shut
  /// down to make room for a new one (`ConnectionTable`), or the service stops.
  func serve() {
    defer {
      watcher.stop()
      release()
      server.connections.leave(channel.fd)  // before the descriptor closes with the channel
    }
    guard let place = server.connections.place(of: channel.fd) else { return }
    while true {
      guard awaitRequest(), server.connections.beginWork(place) else { return }
      let goesOn = serveRequest()
      server.connections.endWork(place, holdsScene: pinned != nil)
      guard goesOn, !server.isStopping else { return }
    }
  }

  /// Waits for the next request to begin arriving; false when the client
  /// left, the service is stopping, or the connection stayed idle too long.
  /// A connection with a scene open waits as long as the scene is open.
  ///
  /// The same `poll` looks at the inotify descriptors of the providers the
  /// last requests used, after the socket (`quiet`): a request for one of
  /// them then needs no `read` to know its files did not change.
  /// So does the socket of the runner it gave back last (`RecentRunner`):
  /// the pool then need not `poll` it to hand it out again.
  private func awaitRequest() -> Bool {
    quiet = 0
    recentRunner.unknown()
    guard channel.pendingByteCount == 0 else { return true }
    let deadline = pinned == nil ? ContinuousClock.Instant.after(server.configuration.connectionIdleTimeout) : nil
    while true {
      let runnerSocket = recentRunner.socket
      let watched = recent.count + (runnerSocket == nil ? 0 : 1)
      guard
        let ready = try? channel.waitForInput(
          or: server.stopSignal, watching: watched, timeout: deadline.map { max($0.remaining, .zero) },
          { $0 < recent.count ? recent[$0].resolution.watch!.descriptor : runnerSocket! })
      else { return false }
      let arrived = ready.input || ready.other
      if let readable = ready.watched {
        if runnerSocket != nil {
          recentRunner.waited(requestArrived: arrived, socketReadable: readable & (1 << UInt64(recent.count)) != 0)
        }
        if arrived { quiet = ~readable & ((1 << UInt64(recent.count)) - 1) }
      }
      if arrived { return ready.input && !ready.other }
      guard let readable = ready.watched, readable != 0 else { return false }  // idle too long
      // A provider's files changed (its next request resolves it again), or
      // the runner's socket became readable (it is forgotten): waits on without them.
      let changed = readable & ((1 << UInt64(recent.count)) - 1)
      if changed != 0 { recent = recent.indices.filter { changed & (1 << UInt64($0)) == 0 }.map { recent[$0] } }
    }
  }

  /// What `reference` names: the resolution `recent` holds when the wait for
  /// this request found its files unchanged, else the cache's.
  private func resolve(_ reference: String?) throws -> ResolutionCache.Resolution {
    if let index = recent.firstIndex(where: { $0.reference == reference }) {
      let resolution = recent[index].resolution
      let current = resolution.isCurrent(watchFoundQuiet: quiet & (1 << UInt64(index)) != 0)
      quiet = 0  // `recent` may change order below
      if current {
        if index > 0 { recent.swapAt(0, index) }
        return resolution
      }
      recent.remove(at: index)
    }
    quiet = 0
    let resolution = try server.resolutions.resolve(reference)
    guard resolution.watch != nil else { return resolution }
    if recent.count >= Self.recentLimit { recent.removeLast() }
    recent.insert((reference, resolution), at: 0)
    return resolution
  }

  /// Reads one request and answers it; false when the connection must close.
  private func serveRequest() -> Bool {
    let request: ServiceRequest
    do {
      let deadline = ContinuousClock.Instant.after(server.configuration.requestArrival)
      request = try channel.receive(ServiceRequest.self, deadline: deadline)
    } catch {
      guard let reply = Self.reply(to: error, pending: channel.pendingByteCount, server.configuration) else { return false }
      try? channel.send(reply.failure)
      return !reply.closes
    }
    guard greeted || Self.isHello(request) else {
      try? channel.send(ServiceReply.failure(ServiceError.badRequest("the first request must be hello").hostError))
      return false
    }
    let reply = answer(request)
    do { try channel.send(reply) } catch { return false }
    return greeted
  }

  /// The failure to answer a request that could not be read, and whether
  /// the connection must close after it; nil when the client simply left.
  private static func reply(
    to error: ProtocolError, pending: Int, _ configuration: ServiceServer.Configuration
  ) -> (failure: ServiceReply, closes: Bool)? {
    let problem: String
    var closes = true
    switch error {
    case .closed where pending == 0: return nil
    case .closed: problem = "truncated request: the connection closed before the request was whole"
    case .timedOut:
      problem = "incomplete request: it did not arrive whole within \(configuration.requestArrival.readable)"
    case .oversized(let size): problem = "a request of \(size) bytes exceeds the \(FrameChannel.maximumFrameSize)-byte limit"
    case .malformed(let reason):
      problem = "malformed request: \(reason)"
      closes = false  // the frame was whole, so the next one can be read
    default: return nil
    }
    return (.failure(ServiceError.badRequest(problem).hostError), closes)
  }

  private static func isHello(_ request: ServiceRequest) -> Bool {
    if case .hello = request { return true }
    return false
  }

  // MARK: Requests

  private func answer(_ request: ServiceRequest) -> ServiceReply {
    do {
      switch request {
      case .hello(let version, let context):
        // A client of another version is answered with a hello, the one
        // message whose layout every version shares, and the connection closes.
        guard version == ServiceProtocol.version else { return .hello(protocolVersion: ServiceProtocol.version, context: "") }
        greeted = true
        // An empty context leaves the decision to the client, which compares the one this hello answers with.
        // An app's leaves the installation to the service, which answers with the context it matched.
        let matched = context == server.deferredContext ? server.deferredContext : server.context
        servesOtherContext = !context.isEmpty && context != matched
        return .hello(protocolVersion: ServiceProtocol.version, context: matched)
      case _ where servesOtherContext:
        return .failure(ServiceError.otherContext.hostError)
      case .openSession(let provider, let timeout):
        let resolution = try resolve(provider)
        let runner = try pin(resolution, timeout: timeout)
        return .session(bundle: resolution.bundle, capabilities: runner.capabilities, notices: resolution.notices)
      case .translate(let provider, let timeout, let source, let target, let texts):
        let resolution = try resolve(provider)
        defer { renewCancellationIfFired() }
        let (translations, notices) = try watcher.watching(fireCancellation) {
          try handler.translate(
            texts, from: source, to: target, resolution: resolution, timeout: timeout, cancellation: cancellation,
            recent: recentRunner)
        }
        return .translations(translations, notices: notices)
      case .languages(let provider, let timeout):
        let resolution = try resolve(provider)
        defer { renewCancellationIfFired() }
        let (pairs, notices) = try watcher.watching(fireCancellation) {
          try handler.languages(resolution: resolution, timeout: timeout, cancellation: cancellation)
        }
        return .languages(pairs, notices: notices)
      case .detect(let text):
        return .detection(handler.detect(text))
      case .openScene(let provider, let timeout, let text, let allowsReplacement, let source, let target):
        try pin(try resolve(provider), timeout: timeout)
        return .scene(
          try onScene {
            try $0.openScene(
              inputText: text, allowsReplacement: allowsReplacement, sourceLanguage: source, targetLanguage: target)
          })
      case .performAction(let id):
        return .scene(try onScene { try $0.performAction(id) })
      case .setText(let id, let value):
        return .scene(try onScene { try $0.setText(id, to: value) })
      case .render:
        return .scene(try onScene { try $0.render() })
      case .waitForChange(let span):
        let wait = min(span, server.configuration.maximumTimeout)
        return .scene(try onScene { try $0.waitForChange(until: .after(wait)) })
      case .takeChange:
        var expanded = false
        let update = try onScene { runner in
          defer { expanded = runner.wantsExpandedSheet }
          return try runner.takeChange()
        }
        return .change(update, expandedSheet: expanded)
      case .watchChange:
        // Ended by the client's next request: it waits on the socket, not on a timer. Not
        // work done for the client: a client that leaves meanwhile has its runner given back, not stopped.
        guard let (runner, _) = pinned else { throw ServiceError.badRequest("no scene is open; send openScene first") }
        let deadline = ContinuousClock.Instant.after(server.configuration.maximumTimeout)
        do {
          let update = try runner.waitForChange(until: deadline, orUntilReadable: channel.fd)
          return .change(update, expandedSheet: runner.wantsExpandedSheet)
        } catch {
          if runner.hasEnded { release() }
          throw error
        }
      case .closeScene:
        if let (runner, key) = pinned {
          pinned = nil
          defer { server.pool.checkin(runner, key: key, forScene: true) }
          try runner.closeScene()
        }
        return .done
      }
    } catch {
      return .failure(HostError(error))
    }
  }

  /// A cancellation that fired is spent: the next request gets a new one.
  private func renewCancellationIfFired() {
    guard cancellation.isFired else { return }
    cancellation = Cancellation()
    fireCancellation = cancellation.fire
  }

  /// The runner pinned to this connection for `resolution`'s scene: the one
  /// pinned already if it serves the same provider, files and settings, else a new one.
  @discardableResult
  private func pin(_ resolution: ResolutionCache.Resolution, timeout: Duration) throws -> RunnerClient {
    if let pinned, pinned.key != resolution.key { release() }
    if let (runner, _) = pinned { return runner }
    let runner = try server.pool.checkout(resolution, timeout: handler.clamped(timeout), forScene: true)
    pinned = (runner, resolution.key)
    return runner
  }

  /// Runs `body` on the scene's runner; a runner that ended is given back (and so closed).
  private func onScene<Update>(_ body: (RunnerClient) throws -> Update) throws -> Update {
    guard let (runner, _) = pinned else { throw ServiceError.badRequest("no scene is open; send openScene first") }
    do {
      return try watcher.watching(runner.interruption) { try body(runner) }
    } catch {
      if runner.hasEnded || watcher.hasInterrupted { release() }
      throw error
    }
  }

  /// Gives the scene's runner back: its scene closed, or the runner closed if that fails.
  private func release() {
    guard let (runner, key) = pinned else { return }
    pinned = nil
    let reusable = !watcher.hasInterrupted
    if reusable && !runner.hasEnded { try? runner.closeScene() }
    server.pool.checkin(runner, key: key, forScene: true, reusable: reusable)
  }
}
