/// A setting a provider declares in its Info.plist under `TPSettings`: an
/// array of dictionaries with `Key`, `Title`, `Type` (`string`, `boolean` or
/// `integer`), `Default` and optionally `Secret` (a string kept in the
/// user's keyring, `SecretStore`).
package struct ProviderSetting: Codable, Equatable, Sendable {
  package enum Kind: String, Codable, Sendable {
    case string, boolean, integer
  }

  package var key: String
  package var title: String
  package var kind: Kind
  package var defaultValue: SettingValue
  /// Kept in the user's Secret Service keyring, never in the settings file.
  package var isSecret: Bool

  package init(key: String, title: String, kind: Kind, defaultValue: SettingValue, isSecret: Bool = false) {
    self.key = key
    self.title = title
    self.kind = kind
    self.defaultValue = defaultValue
    self.isSecret = isSecret
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    key = try container.decode(String.self, forKey: .key)
    title = try container.decode(String.self, forKey: .title)
    kind = try container.decode(Kind.self, forKey: .kind)
    defaultValue = try container.decode(SettingValue.self, forKey: .defaultValue)
    isSecret = try container.decodeIfPresent(Bool.self, forKey: .isSecret) ?? false
  }
}

/// A setting's value: a string, a Boolean or an integer, as JSON has them.
package enum SettingValue: Codable, Equatable, Sendable, CustomStringConvertible {
  case string(String)
  case boolean(Bool)
  case integer(Int)

  package init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let value = try? container.decode(Bool.self) {
      self = .boolean(value)
    } else if let value = try? container.decode(Int.self) {
      self = .integer(value)
    } else {
      self = .string(try container.decode(String.self))
    }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .string(let value): try container.encode(value)
    case .boolean(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    }
  }

  package var kind: ProviderSetting.Kind {
    switch self {
    case .string: .string
    case .boolean: .boolean
    case .integer: .integer
    }
  }

  package var description: String {
    switch self {
    case .string(let value): value
    case .boolean(let value): value ? "true" : "false"
    case .integer(let value): String(value)
    }
  }

  /// The value of `text` read as `kind` (`true`/`false`, `yes`/`no`, `1`/`0`
  /// for Booleans), or nil when it is not one.
  package init?(parsing text: String, as kind: ProviderSetting.Kind) {
    switch kind {
    case .string: self = .string(text)
    case .integer:
      guard let value = Int(text) else { return nil }
      self = .integer(value)
    case .boolean:
      switch text.lowercased() {
      case "true", "yes", "1", "on": self = .boolean(true)
      case "false", "no", "0", "off": self = .boolean(false)
      default: return nil
      }
    }
  }
}
