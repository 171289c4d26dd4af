/// A request from a client.
///
/// `provider` is a reference as `--provider` takes it (an identifier, a name
/// or an absolute bundle path) or nil for the default provider; `timeout`
/// is how long the provider may take, as `--timeout` (seconds on the wire).
package enum ServiceRequest: Sendable, Equatable {
  /// Must come first. `context` is the client's `ServiceContext`: a service
  /// that sees another answers the hello and fails every later request
  /// without running anything (`otherContext`); an empty one leaves the
  /// decision to the client.
  case hello(protocolVersion: Int, context: String)
  /// Resolve the provider and pin a runner to this connection for a scene; answered with `session`.
  case openSession(provider: String?, timeout: Duration)
  /// Translate a batch headlessly; answered with `translations`.
  case translate(provider: String?, timeout: Duration, source: String, target: String, texts: [String])
  /// List the provider's language pairs; answered with `languages`.
  case languages(provider: String?, timeout: Duration)
  /// Detect the language of a text; answered with `detection`.
  case detect(text: String)
  /// Pin a runner to this connection and open its scene; answered with `scene`.
  case openScene(
    provider: String?, timeout: Duration, inputText: String?, allowsReplacement: Bool, sourceLanguage: String?,
    targetLanguage: String?)
  /// Scene requests on the pinned runner; each answered with `scene`.
  case performAction(id: String)
  case setText(id: String, value: String)
  case render
  /// Wait up to this long for the provider to finish or redraw.
  case waitForChange(Duration)
  /// What the provider sent since the last request, without waiting; answered with `change`.
  case takeChange
  /// Wait for the provider to finish or redraw, or for this client's next
  /// request, whichever comes first (bounded by the service's longest
  /// timeout); answered with `change`, before the next request's reply.
  case watchChange
  /// Destroy the scene and give the runner back; answered with `done`.
  case closeScene
}
