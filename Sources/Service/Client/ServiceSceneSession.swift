import Core
import RunnerProtocol
import System

/// A scene session through the resident service: the service pinned a warm
/// runner to the connection when the session opened, and every scene
/// request goes to it until the session closes. Headless requests on the
/// same connection borrow another runner of the pool.
///
/// Every request names the bundle by its path, so a session keeps its
/// provider even if the default changes meanwhile. A scene request is never
/// sent again: the runner that held the scene went with a lost connection.
package final class ServiceSceneSession: SceneSession {
  package let bundle: ProviderBundle
  package let capabilities: [Capability]
  package let timeout: Duration
  package private(set) var wantsExpandedSheet = false
  private let client: ServiceClient
  private let interrupted = AtomicFlag()
  /// Set while a `watchChange` request is unanswered: the next request's reply comes after its answer.
  private var watching = false
  /// A change the watch's answer brought, for the next `takeChange`.
  private var watched: SceneUpdate?

  init(client: ServiceClient, bundle: ProviderBundle, capabilities: [Capability], timeout: Duration) {
    self.client = client
    self.bundle = bundle
    self.capabilities = capabilities
    self.timeout = timeout
  }

  package func openScene(
    inputText: String?, allowsReplacement: Bool, sourceLanguage: String?, targetLanguage: String?
  ) throws(HostError) -> SceneUpdate {
    try scene(
      .openScene(
        provider: bundle.path, timeout: timeout, inputText: inputText, allowsReplacement: allowsReplacement,
        sourceLanguage: sourceLanguage, targetLanguage: targetLanguage))
  }

  package func performAction(_ id: String) throws(HostError) -> SceneUpdate { try scene(.performAction(id: id)) }

  package func setText(_ id: String, to value: String) throws(HostError) -> SceneUpdate {
    try scene(.setText(id: id, value: value))
  }

  package func render() throws(HostError) -> SceneUpdate { try scene(.render) }

  package func waitForChange(until deadline: ContinuousClock.Instant) throws(HostError) -> SceneUpdate {
    try scene(.waitForChange(deadline.remaining))
  }

  package func takeChange() throws(HostError) -> SceneUpdate? {
    let reply = try request(.takeChange)
    guard case .change(let update, let expandedSheet) = reply else { throw ServiceClient.unexpected(reply).hostError }
    wantsExpandedSheet = wantsExpandedSheet || expandedSheet
    defer { watched = nil }
    return update ?? watched
  }

  /// Asks the service to answer when the provider changes or this client's
  /// next request arrives, whichever comes first; the socket becomes
  /// readable with the answer, which the next request reads before its own.
  package func watchForChange() throws(HostError) -> FileDescriptor {
    if !watching {
      try calling { () throws(ServiceError) in try client.send(.watchChange, timeout: timeout) }
      watching = true
    }
    return client.descriptor
  }

  package func closeScene() throws(HostError) {
    _ = try request(.closeScene)
  }

  package func translate(_ texts: [String], from source: String, to target: String) throws(HostError) -> [String] {
    try calling { () throws(ServiceError) in
      try client.translate(texts, from: source, to: target, provider: bundle.path, timeout: timeout)
    }
  }

  package func languages() throws(HostError) -> [LanguagePairStatus] {
    try calling { () throws(ServiceError) in try client.languages(provider: bundle.path, timeout: timeout) }
  }

  package func close() { client.close() }

  /// Whether the connection went away, could no longer be trusted, or was
  /// shut down by `interruption`.
  package var hasEnded: Bool { !client.isUsable || interrupted.value }

  /// Shuts the connection down: the request in progress fails at once, and
  /// the service, seeing the client gone, stops the runner that was working
  /// on it (`ClientWatcher`).
  package var interruption: @Sendable () -> Void {
    { [client, interrupted] in
      interrupted.value = true
      client.close()
    }
  }

  private func scene(_ request: ServiceRequest) throws(HostError) -> SceneUpdate {
    let reply = try self.request(request)
    guard case .scene(let update) = reply else { throw ServiceClient.unexpected(reply).hostError }
    return update
  }

  private func request(_ request: ServiceRequest) throws(HostError) -> ServiceReply {
    guard watching else {
      watched = nil
      return try calling { () throws(ServiceError) in try client.exchange(request, timeout: timeout) }
    }
    // The service ends the watch when this request arrives, and answers the watch first.
    watching = false
    return try calling { () throws(ServiceError) in
      try client.send(request, timeout: timeout)
      let answer = try client.receiveReply(timeout: timeout)
      guard case .change(let update, let expandedSheet) = answer else { throw ServiceClient.unexpected(answer) }
      wantsExpandedSheet = wantsExpandedSheet || expandedSheet
      watched = update
      return try client.receiveReply(timeout: timeout)
    }
  }

  private func calling<T>(_ body: () throws(ServiceError) -> T) throws(HostError) -> T {
    do { return try body() } catch { throw error.hostError }
  }
}
