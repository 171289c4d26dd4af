import RunnerProtocol

/// A provider that loaded but did not do what was asked.
package enum ProviderError: Error, Equatable, Codable, CustomStringConvertible {
  /// The provider does not implement capability `id`.
  case missingCapability(String)
  /// A table the provider returned lacks a required function.
  case missingFunction(String)
  /// A table the provider returned is smaller than its v1 layout.
  case invalidTable(String, size: UInt32)
  /// `create_scene` returned NULL.
  case sceneCreationFailed
  /// A call returned a failure status, with the provider's message.
  case failed(ProviderStatus, message: String)
  /// A translate call answered the wrong number of texts or broke UTF-8.
  case invalidTranslation(String)

  package var description: String {
    switch self {
    case .missingCapability(let id):
      "the provider does not implement '\(id)'"
    case .missingFunction(let name):
      "the provider's table lacks '\(name)'"
    case .invalidTable(let name, let size):
      "the provider's \(name) is \(size) bytes, smaller than its ABI v1 layout"
    case .sceneCreationFailed:
      "the provider could not create its scene (see its log above)"
    case .failed(let status, let message) where message.isEmpty:
      "the provider failed: \(status)"
    case .failed(let status, let message):
      "the provider failed: \(status): \(message)"
    case .invalidTranslation(let reason):
      "the provider's translation is unusable: \(reason)"
    }
  }
}
