import System

/// A setting that cannot be read or set.
package enum SettingsError: HostErrorConvertible, Equatable {
  case unknownKey(String, provider: String, known: [String])
  case wrongType(String, value: String, expected: ProviderSetting.Kind)
  case unreadable(String, reason: String)
  case unwritable(String, reason: String)
  /// The keyring that holds secret settings cannot be used (why), for this provider and setting.
  case keyringUnavailable(provider: String, setting: String, reason: String)

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
    case .keyringUnavailable(let provider, let setting, let reason):
      "setting '\(setting)' of provider '\(provider)' is a secret, kept only in your Secret Service keyring, which cannot be used (\(reason)); start a keyring (gnome-keyring, KeePassXC) in your session; secrets are never written to a file"
    }
  }

  package var hostError: HostError {
    switch self {
    case .unknownKey, .wrongType: HostError(.usage, description)
    case .unreadable, .unwritable, .keyringUnavailable: HostError(.failure, description)
    }
  }
}
