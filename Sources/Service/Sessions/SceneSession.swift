import Core
import RunnerProtocol
import System

/// A provider whose selected-text scene a person (the popover) or a script
/// (`run --press`, `validate`) drives; it translates headlessly too.
///
/// Opened by `ProviderLaunch.scene`: a `ServiceSceneSession`, which pins a
/// warm runner of the resident service, or a `RunnerClient`.
package protocol SceneSession: TranslatorSession {
  var bundle: ProviderBundle { get }
  /// What the provider implements.
  var capabilities: [Capability] { get }
  /// How long each request may take.
  var timeout: Duration { get }

  /// Creates the scene and returns its first state.
  func openScene(
    inputText: String?, allowsReplacement: Bool, sourceLanguage: String?, targetLanguage: String?
  ) throws(HostError) -> SceneUpdate
  func performAction(_ id: String) throws(HostError) -> SceneUpdate
  func setText(_ id: String, to value: String) throws(HostError) -> SceneUpdate
  func render() throws(HostError) -> SceneUpdate
  /// Waits until `deadline` for the provider to finish or ask to be drawn again.
  func waitForChange(until deadline: ContinuousClock.Instant) throws(HostError) -> SceneUpdate
  /// Takes what the provider sent since the last request without waiting:
  /// the scene's new state if it finished or asked to be drawn again, nil if
  /// nothing changed. An interactive front end calls it between key presses.
  func takeChange() throws(HostError) -> SceneUpdate?
  /// Arms a watch for the provider's own changes and returns a descriptor
  /// that becomes readable when one may have come (or the session ended);
  /// `takeChange` then reads it. Any request ends the watch. An interactive
  /// front end waits on it between key presses instead of asking again and again.
  func watchForChange() throws(HostError) -> FileDescriptor
  /// Whether the provider asked for more room (`expandSheet`).
  var wantsExpandedSheet: Bool { get }
  /// Destroys the scene, keeping the provider loaded.
  func closeScene() throws(HostError)
}

extension SceneSession {
  /// Whether the provider implements `capability`.
  package func supports(_ capability: Capability) -> Bool { capabilities.contains(capability) }

  /// Creates the provider's selected-text scene without language hints.
  package func openScene(inputText: String?, allowsReplacement: Bool) throws(HostError) -> SceneUpdate {
    try openScene(inputText: inputText, allowsReplacement: allowsReplacement, sourceLanguage: nil, targetLanguage: nil)
  }
}
