import RunnerProtocol

/// A provider that loaded but did not do what was asked.
package enum ProviderError: Error, Equatable, Codable, CustomStringConvertible {
  /// The provider does not implement capability `id`.
  case missingCapability(String)
  /// A table the provider returned lacks a required function.
  case missingFunction(String)
  /// A table the provider returned is smaller than the layout of the ABI it
  /// speaks (`required` bytes).
  case invalidTable(String, size: UInt32, required: Int)
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
    case .invalidTable(let name, let size, let required):
      "the provider's \(name) is \(size) bytes, smaller than the \(required) bytes the layout of its ABI has; set its struct_size to sizeof(\(name)) from the header it is built with"
    case .sceneCreationFailed:
      "the provider could not create its scene (its log lines, if it wrote any, say why)"
    case .failed(let status, let message) where message.isEmpty:
      "the provider failed: \(status)"
    case .failed(let status, let message):
      "the provider failed: \(status): \(message)"
    case .invalidTranslation(let reason):
      "the provider's translation is unusable: \(reason)"
    }
  }
}
