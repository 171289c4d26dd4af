import RunnerProtocol
import Synchronization
import System

/// Headless requests through the resident service, one round trip each, and
/// the one place in the host where a request is sent twice.
///
/// A service that cannot serve this process (it sees other folders, speaks
/// another protocol version, or refused: `ServiceError.unavailable`, known
/// from the first reply) ran nothing: the request, and every one after it,
/// goes through a runner started here (the direct path).
///
/// The retry policy: a request whose connection went away before its reply
/// came (the service was stopped, restarted or crashed) is sent once more,
/// through the session `ProviderLaunch` opens next (the service again if
/// it listens within `ServiceTranslator.restartPatience`, else a runner
/// started here), which serves the requests after it too. Never a request
/// that got no answer in time (`noAnswer`: it may still be served), nor one
/// the service answered with a failure, nor one that was interrupted; scene
/// requests never (`ServiceSceneSession`: their runner went with the connection).
package final class ServiceTranslator: TranslatorSession {
  /// How long a lost request waits for a restarting service before it takes the direct path.
  package static let restartPatience = Duration.seconds(3)

  private let client: ServiceClient
  private let provider: String?
  private let timeout: Duration
  /// The session that took over after the connection went away, or the
  /// service turned out to be unable to serve this process.
  private var successor: (any TranslatorSession)?
  private let direct: () throws(HostError) -> any TranslatorSession
  /// Opens the session that takes over a lost request; nil for a session
  /// that itself took one over, so that no request is sent more than twice.
  private let reopen: (() throws(HostError) -> any TranslatorSession)?
  private var notice: ((String) -> Void)?
  private let interruptions: Interruptions

  /// A translator for `provider` (nil: the default) on `client`; `direct`
  /// starts a runner here when the service cannot serve this process, and
  /// `reopen` opens the session that takes over when the connection goes
  /// away (nil: none does, and the session ends). `notice` receives what
  /// resolving the provider has to say, once.
  init(
    client: ServiceClient, provider: String?, timeout: Duration, notice: @escaping (String) -> Void,
    direct: @escaping () throws(HostError) -> any TranslatorSession,
    reopen: (() throws(HostError) -> any TranslatorSession)?
  ) {
    self.client = client
    self.provider = provider
    self.timeout = timeout
    self.notice = notice
    self.direct = direct
    self.reopen = reopen
    interruptions = Interruptions(client.close)
  }

  package func translate(_ texts: [String], from source: String, to target: String) throws(HostError) -> [String] {
    try send({ (session) throws(HostError) in try session.translate(texts, from: source, to: target) }) {
      (client, notice) throws(ServiceError) in
      try client.translate(texts, from: source, to: target, provider: provider, timeout: timeout, notice: notice)
    }
  }

  package func languages() throws(HostError) -> [LanguagePairStatus] {
    try send({ (session) throws(HostError) in try session.languages() }) { (client, notice) throws(ServiceError) in
      try client.languages(provider: provider, timeout: timeout, notice: notice)
    }
  }

  package func close() {
    client.close()
    successor?.close()
  }

  /// Whether the session can serve no more: interrupted, or its connection
  /// can no longer be trusted (it went away, or a reply came late or garbled).
  package var hasEnded: Bool { successor?.hasEnded ?? (interruptions.isInterrupted || !client.isUsable) }

  package var interruption: @Sendable () -> Void { { [interruptions] in interruptions.interrupt() } }

  /// Sends a request through the service, or through the successor once
  /// there is one, applying the retry policy above.
  private func send<T>(
    _ bySuccessor: (any TranslatorSession) throws(HostError) -> T,
    byService: (ServiceClient, (String) -> Void) throws(ServiceError) -> T
  ) throws(HostError) -> T {
    if let successor { return try bySuccessor(successor) }
    guard !interruptions.isInterrupted else { throw ServiceError.connectionLost(client.location.socket).hostError }
    let tell = notice ?? { _ in }
    notice = nil  // resolution's notices are told with the first reply only
    do {
      return try byService(client, tell)
    } catch .unavailable(let reason) where !interruptions.isInterrupted {
      ServiceError.unavailable(reason).directPathNotice.map(tell)
      return try bySuccessor(try handOver(to: direct()))
    } catch .connectionLost where !interruptions.isInterrupted && reopen != nil {
      return try bySuccessor(try handOver(to: reopen!()))
    } catch {
      throw error.hostError
    }
  }

  /// Makes `next` the session that serves this one's requests from now on,
  /// unless an interruption came first.
  private func handOver(to next: any TranslatorSession) throws(HostError) -> any TranslatorSession {
    guard interruptions.handOver(to: next.interruption) else {
      next.close()
      throw ServiceError.connectionLost(client.location.socket).hostError
    }
    client.close()
    successor = next
    return next
  }

  /// What `interruption` stops: the service connection, then the successor.
  private final class Interruptions: Sendable {
    private let state: Mutex<(interrupted: Bool, stop: @Sendable () -> Void)>

    init(_ stop: @escaping @Sendable () -> Void) { state = Mutex((false, stop)) }

    var isInterrupted: Bool { state.withLock(\.interrupted) }

    func interrupt() {
      state.withLock { state in
        state.interrupted = true
        state.stop()
      }
    }

    /// Makes `stop` what an interruption stops; false if one came first.
    func handOver(to stop: @escaping @Sendable () -> Void) -> Bool {
      state.withLock { state in
        guard !state.interrupted else { return false }
        state.stop = stop
        return true
      }
    }
  }
}
