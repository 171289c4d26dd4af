import System

/// A setting that cannot be read or set.
package enum SettingsError: HostErrorConvertible, Equatable {
  case unknownKey(String, provider: String, known: [String])
  case wrongType(String, value: String, expected: ProviderSetting.Kind)
  case unreadable(String, reason: String)
  case unwritable(String, reason: String)

  package var description: String {
    switch self {
    case .unknownKey(let key, let provider, let known):
      "provider '\(provider)' has no setting '\(key)'; its settings are "
        + (known.isEmpty ? "none" : known.map { "'\($0)'" }.joined(separator: ", "))
    case .wrongType(let key, let value, let expected):
      "setting '\(key)' takes \(expected == .integer ? "an" : "a") \(expected.rawValue), not '\(value)'"
        + (expected == .boolean ? " (use true or false)" : "")
    case .unreadable(let path, let reason): "\(path): cannot be read: \(reason)"
    case .unwritable(let path, let reason): "\(path): cannot be written: \(reason)"
    }
  }

  package var hostError: HostError {
    switch self {
    case .unknownKey, .wrongType: HostError(.usage, description)
    case .unreadable, .unwritable: HostError(.failure, description)
    }
  }
}
