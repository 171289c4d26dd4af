import TranslationViewTree

/// A provider the host talks to: in its own sandboxed runner (`RunnerClient`,
/// always, except when debugging) or loaded into the host (`InProcessSession`).
package protocol ProviderSession: AnyObject {
  var bundle: ProviderBundle { get }
  /// The capability ids the provider implements.
  var capabilities: [String] { get }
  /// Seconds each request may take.
  var timeout: Double { get }

  func openScene(
    inputText: String?, allowsReplacement: Bool, sourceLanguage: String?, targetLanguage: String?
  ) throws(RunnerError) -> SceneUpdate
  func performAction(_ id: String) throws(RunnerError) -> SceneUpdate
  func setText(_ id: String, to value: String) throws(RunnerError) -> SceneUpdate
  func render() throws(RunnerError) -> SceneUpdate
  /// Waits until `deadline` (monotonic nanoseconds) for the provider to finish or ask to be drawn again.
  func waitForChange(until deadline: UInt64) throws(RunnerError) -> SceneUpdate
  /// Takes what the provider sent since the last request without waiting:
  /// the scene's new state if it finished or asked to be drawn again, nil if
  /// nothing changed. An interactive front end calls it between key presses.
  func takeChange() throws(RunnerError) -> SceneUpdate?
  /// Whether the provider asked for more room (`expandSheet`).
  var wantsExpandedSheet: Bool { get }
  func closeScene() throws(RunnerError)
  func translate(_ texts: [String], from source: String, to target: String) throws(RunnerError) -> [String]
  func languages() throws(RunnerError) -> [LanguagePairStatus]
  func close()

  /// Whether the session can serve no more requests (its runner ended, or
  /// it was interrupted): start a new one.
  var hasEnded: Bool { get }
  /// Stops the request in progress at once; callable from any thread, also
  /// when nothing is in progress. The request fails and the session ends
  /// (for a runner, `hasEnded` notices it at the next request). The client
  /// library's `cancel()` calls it while another thread waits on the session.
  var interruption: @Sendable () -> Void { get }
}

/// What a scene request produced.
package enum SceneUpdate: Equatable, Sendable {
  case view(ViewTree)
  /// The scene finished; `translation` is the complete replacement, if any.
  case finished(translation: String?)
}

extension ProviderSession {
  /// Whether the provider implements capability `id`.
  package func supports(_ id: String) -> Bool { capabilities.contains(id) }

  /// Creates the provider's selected-text scene without language hints.
  package func openScene(inputText: String?, allowsReplacement: Bool) throws(RunnerError) -> SceneUpdate {
    try openScene(inputText: inputText, allowsReplacement: allowsReplacement, sourceLanguage: nil, targetLanguage: nil)
  }
}
