/// A request from the host; each gets exactly one `RunnerReply`.
package enum RunnerRequest: Sendable, Equatable {
  /// Say which isolation layers are in force; allowed before `hello`.
  case describeSandbox
  /// Load the provider. Must come before any request below.
  case hello(protocolVersion: Int, bundleIdentifier: String, bundlePath: String, executablePath: String, settings: String)
  /// Create the selected-text scene; replied to with its first view.
  case openScene(inputText: String?, allowsReplacement: Bool, sourceLanguage: String?, targetLanguage: String?)
  /// Render the scene again.
  case render
  /// Press a control; replied to with the new view, or `finished` if the scene finished.
  case performAction(id: String)
  /// Set a text field; replied to with the new view.
  case setText(id: String, value: String)
  /// Destroy the scene.
  case closeScene
  /// Translate a batch headlessly.
  case translate(source: String, target: String, texts: [String])
  /// List the provider's language pairs.
  case languages
  /// Answer `done` at once (round-trip measurements).
  case ping
}
