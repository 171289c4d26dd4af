/// A provider driven through the resident service: the same
/// `ProviderSession` as a `RunnerClient`, so that everything that drives one
/// (`run`, scene scripts, the popover) works unchanged.
///
/// Headless requests borrow a warm runner for each request; a scene pins one
/// runner from `openScene` to `closeScene` (or `close`). Every request names
/// the bundle by its path, so a session keeps its provider even if the
/// default changes meanwhile.
package final class ServiceSession: ProviderSession {
  package let bundle: ProviderBundle
  package let capabilities: [String]
  package let timeout: Double
  package private(set) var wantsExpandedSheet = false
  private let client: ServiceClient

  init(client: ServiceClient, bundle: ProviderBundle, capabilities: [String], timeout: Double) {
    self.client = client
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
    guard case .change(let update, let expandedSheet) = reply else { throw client.unexpected(reply).runnerError }
    wantsExpandedSheet = wantsExpandedSheet || expandedSheet
    return update
  }

  package func closeScene() throws(RunnerError) {
    defer { client.mayRetry = true }
    _ = try request(.closeScene)
  }

  package func translate(_ texts: [String], from source: String, to target: String) throws(RunnerError) -> [String] {
    let reply = try request(.translate(provider: bundle.path, timeout: timeout, source: source, target: target, texts: texts))
    guard case .translations(let translations) = reply, translations.count == texts.count else {
      throw client.unexpected(reply).runnerError
    }
    return translations
  }

  package func languages() throws(RunnerError) -> [LanguagePairStatus] {
    let reply = try request(.languages(provider: bundle.path, timeout: timeout))
    guard case .languages(let pairs) = reply else { throw client.unexpected(reply).runnerError }
    return pairs
  }

  package func close() { client.close() }

  private func scene(_ request: ServiceRequest) throws(RunnerError) -> SceneUpdate {
    let reply = try self.request(request)
    guard case .scene(let update) = reply else { throw client.unexpected(reply).runnerError }
    return update
  }

  private func request(_ request: ServiceRequest) throws(RunnerError) -> ServiceReply {
    do { return try client.exchange(request, timeout: timeout) } catch { throw error.runnerError }
  }
}
