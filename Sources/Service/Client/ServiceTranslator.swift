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
/// and only once: to the service on a new connection if it listens within
/// `ServiceTranslator.restartPatience`, else through a runner started here,
/// which then serves the requests after it too. Never a request that got no
/// answer in time (`noAnswer`: it may still be served), nor one the service
/// answered with a failure, nor one that was interrupted; scene requests
/// never (`ServiceSceneSession`: their runner went with the connection).
package final class ServiceTranslator: TranslatorSession {
  /// How long a lost request waits for a restarting service before it takes the direct path.
  package static let restartPatience = Duration.seconds(3)

  /// The connection to the service; replaced when a lost request is sent again.
  private var client: ServiceClient
  private let provider: String?
  private let timeout: Duration
  /// The runner started here after the service turned out to be gone or
  /// unable to serve this process; it serves every request from then on.
  private var successor: (any TranslatorSession)?
  /// A new connection to the service, waiting up to `restartPatience`; nil when none listens.
  private let reconnect: () -> ServiceClient?
  /// Starts the provider's runner here.
  private let direct: () throws(HostError) -> any TranslatorSession
  private var notice: ((String) -> Void)?
  private let interruptions: Interruptions

  /// A translator for `provider` (nil: the default) on `client`. `notice`
  /// receives what resolving the provider has to say, once.
  init(
    client: ServiceClient, provider: String?, timeout: Duration, notice: @escaping (String) -> Void,
    reconnect: @escaping () -> ServiceClient?, direct: @escaping () throws(HostError) -> any TranslatorSession
  ) {
    self.client = client
    self.provider = provider
    self.timeout = timeout
    self.notice = notice
    self.reconnect = reconnect
    self.direct = direct
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
    var sentAgain = false
    while true {
      guard !interruptions.isInterrupted else { throw lost }
      let tell = notice ?? { _ in }
      notice = nil  // resolution's notices are told with the first reply only
      do {
        return try byService(client, tell)
      } catch .unavailable(let reason) where !interruptions.isInterrupted {
        ServiceError.unavailable(reason).directPathNotice.map(tell)
        return try bySuccessor(try startDirect())
      } catch .connectionLost where !interruptions.isInterrupted && !sentAgain {
        sentAgain = true
        guard let fresh = reconnect() else { return try bySuccessor(try startDirect()) }
        guard interruptions.handOver(to: fresh.close) else {
          fresh.close()
          throw lost
        }
        client = fresh
      } catch {
        throw error.hostError
      }
    }
  }

  /// The runner started here that serves this session's requests from now on,
  /// unless an interruption came first.
  private func startDirect() throws(HostError) -> any TranslatorSession {
    let next = try direct()
    guard interruptions.handOver(to: next.interruption) else {
      next.close()
      throw lost
    }
    client.close()
    successor = next
    return next
  }

  private var lost: HostError { ServiceError.connectionLost(client.location.socket).hostError }

  /// What `interruption` stops: the connection in use, or the runner that took over.
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
