/// The runner's answer to one request.
package enum RunnerReply: Sendable, Equatable {
  /// The provider loaded; `providerABI` is the ABI version its entry table
  /// declares ("1.1"), `capabilities` what it implements, `sandbox` the
  /// isolation layers in force.
  case ready(protocolVersion: Int, providerABI: String, capabilities: [Capability], sandbox: [SandboxLayer])
  /// The isolation layers in force.
  case sandbox([SandboxLayer])
  /// The scene's view tree, exactly as the provider rendered it (the host checks it).
  case view(json: String)
  /// The scene finished during the request (a `finished` event came first).
  case finished
  /// The request succeeded and has nothing to return.
  case done
  /// Translations in request order.
  case translations([String])
  /// The provider's language pairs.
  case languages([LanguagePairStatus])
  /// The request failed.
  case failure(RunnerFailure)
}
