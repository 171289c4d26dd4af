import Synchronization

/// A provider driven through the resident service: the same
/// `ProviderSession` as a `RunnerClient`, so that everything that drives one
/// (`run`, scene scripts, the popover) works unchanged.
///
/// Headless requests borrow a warm runner for each request; a scene pins one
/// runner from `openScene` to `closeScene` (or `close`). Every request names
/// the bundle by its path, so a session keeps its provider even if the
/// default changes meanwhile.
///
/// `interruption` shuts the connection down from another thread. For that,
/// a request goes to the service once without `ServiceClient`'s own retry,
/// so that the connection cannot be replaced while another thread may shut
/// it; when the service went away (and no scene is open), the session sends
/// the request once more through the client's reconnecting retry, as the
/// client alone would. An interrupted request is never sent again.
package final class ServiceSession: ProviderSession {
  package let bundle: ProviderBundle
  package let capabilities: [String]
  package let timeout: Double
  package private(set) var wantsExpandedSheet = false
  private let client: ServiceClient
  private let connection: Connection

  init(client: ServiceClient, bundle: ProviderBundle, capabilities: [String], timeout: Double) {
    self.client = client
    connection = Connection(client: client)
    self.bundle = bundle
    self.capabilities = capabilities
    self.timeout = timeout
  }

  package func openScene(
    inputText: String?, allowsReplacement: Bool, sourceLanguage: String?, targetLanguage: String?
  ) throws(RunnerError) -> SceneUpdate {
    let update = try scene(
      .openScene(
        provider: bundle.path, timeout: timeout, inputText: inputText, allowsReplacement: allowsReplacement,
        sourceLanguage: sourceLanguage, targetLanguage: targetLanguage))
    client.mayRetry = false
    return update
  }

  package func performAction(_ id: String) throws(RunnerError) -> SceneUpdate { try scene(.performAction(id: id)) }

  package func setText(_ id: String, to value: String) throws(RunnerError) -> SceneUpdate {
    try scene(.setText(id: id, value: value))
  }

  package func render() throws(RunnerError) -> SceneUpdate { try scene(.render) }

  package func waitForChange(until deadline: UInt64) throws(RunnerError) -> SceneUpdate {
    let now = Syscalls.monotonicNanoseconds()
    return try scene(.waitForChange(milliseconds: deadline > now ? Int((deadline - now) / 1_000_000) : 0))
  }

  package func takeChange() throws(RunnerError) -> SceneUpdate? {
    let reply = try request(.takeChange)
    guard case .change(let update, let expandedSheet) = reply else { throw ServiceClient.unexpected(reply).runnerError }
    wantsExpandedSheet = wantsExpandedSheet || expandedSheet
    return update
  }

  package func closeScene() throws(RunnerError) {
    defer { client.mayRetry = true }
    _ = try request(.closeScene)
  }

  package func translate(_ texts: [String], from source: String, to target: String) throws(RunnerError) -> [String] {
    do {
      return try ServiceClient.translate(texts, from: source, to: target, provider: bundle.path, timeout: timeout, through: exchange)
    } catch { throw error.runnerError }
  }

  package func languages() throws(RunnerError) -> [LanguagePairStatus] {
    do { return try ServiceClient.languages(provider: bundle.path, timeout: timeout, through: exchange) } catch { throw error.runnerError }
  }

  package func close() { client.close() }

  /// Whether `interruption` was called: the connection is shut down.
  package var hasEnded: Bool { connection.isInterrupted }

  /// Shuts the connection down: the request in progress fails at once and
  /// is not sent again, and the service, seeing the client gone, stops the
  /// runner that was working on it (`ClientWatcher`).
  package var interruption: @Sendable () -> Void { { [connection] in connection.interrupt() } }

  private func scene(_ request: ServiceRequest) throws(RunnerError) -> SceneUpdate {
    let reply = try self.request(request)
    guard case .scene(let update) = reply else { throw ServiceClient.unexpected(reply).runnerError }
    return update
  }

  /// `request` as `ServiceClient`'s shared requests take it.
  private func exchange(_ request: ServiceRequest) throws(ServiceFailure) -> ServiceReply {
    do { return try self.request(request) } catch { throw .runner(error) }
  }

  private func request(_ request: ServiceRequest) throws(RunnerError) -> ServiceReply {
    let mayReconnect = client.mayRetry
    guard connection.beginAttempt() else { throw .serviceFailed(.connectionLost(client.location.socket, retried: false)) }
    client.mayRetry = false
    let first = Result { () throws(ServiceFailure) in try client.exchange(request, timeout: timeout) }
    client.mayRetry = mayReconnect
    guard connection.endAttempt(reconnecting: mayReconnect && Self.wasLost(first)) else {
      do { return try first.get() } catch { throw error.runnerError }
    }
    defer { connection.endReconnecting() }
    // The old connection fails at once; the client reconnects (waiting for a restarting service) and sends it again.
    do { return try client.exchange(request, timeout: timeout) } catch { throw error.runnerError }
  }

  /// Whether `outcome` is a connection that went away, rather than a
  /// service that did not answer before the client's deadline (`noAnswer`,
  /// which `ServiceClient` does not retry either: the request may still be served).
  private static func wasLost(_ outcome: Result<ServiceReply, ServiceFailure>) -> Bool {
    guard case .failure(.service(.connectionLost(_, retried: false))) = outcome else { return false }
    return true
  }

  /// The connection as `interruption` sees it from another thread: it may
  /// shut the socket down, except while a reconnection may replace it.
  private final class Connection: Sendable {
    // The client is touched from another thread only through `close()`,
    // under the lock, while the client cannot be replacing its connection
    // (which only a reconnecting retry does); reading it then is safe.
    private nonisolated(unsafe) let client: ServiceClient
    private let state = Mutex<(phase: Phase, isInterrupted: Bool)>((.idle, false))

    private enum Phase { case idle, attempting, reconnecting }

    init(client: ServiceClient) { self.client = client }

    var isInterrupted: Bool { state.withLock(\.isInterrupted) }

    func interrupt() {
      state.withLock { state in
        state.isInterrupted = true
        // A reconnection is in progress: `endReconnecting` shuts the new connection down.
        if state.phase != .reconnecting { client.close() }
      }
    }

    /// Starts a request on the current connection; false once interrupted.
    func beginAttempt() -> Bool {
      state.withLock { state in
        guard !state.isInterrupted else { return false }
        state.phase = .attempting
        return true
      }
    }

    /// Ends the first attempt; true when the request is to be sent once more
    /// (`reconnecting` and not interrupted meanwhile).
    func endAttempt(reconnecting: Bool) -> Bool {
      state.withLock { state in
        state.phase = reconnecting && !state.isInterrupted ? .reconnecting : .idle
        return state.phase == .reconnecting
      }
    }

    func endReconnecting() {
      state.withLock { state in
        state.phase = .idle
        if state.isInterrupted { client.close() }
      }
    }
  }
}
