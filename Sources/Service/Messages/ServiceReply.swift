import Core
import RunnerProtocol
import System

/// The service's answer to one request.
package enum ServiceReply: Sendable, Equatable {
  /// The service's protocol version and `ServiceContext`.
  case hello(protocolVersion: Int, context: String)
  /// The resolved bundle, its capabilities, and the notices resolution printed (in order).
  case session(bundle: ProviderBundle, capabilities: [Capability], notices: [String])
  /// One translation per text, and the notices resolution printed (in order).
  case translations([String], notices: [String])
  /// The provider's pairs, and the notices resolution printed.
  case languages([LanguagePairStatus], notices: [String])
  case detection(LanguageDetection)
  case scene(SceneUpdate)
  /// The scene's new state if it changed on its own, and whether the
  /// provider has asked for more room.
  case change(SceneUpdate?, expandedSheet: Bool)
  case done
  case failure(HostError)
}
