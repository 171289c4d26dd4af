import CTranslationProvider
import FoundationEssentials

/// The provider's settings, as the user set them with `translation-host
/// config` (or their defaults): every setting the bundle declares in its
/// Info.plist under `TPSettings`. Read them in the extension's initializer or later.
public enum ProviderSettings {
  /// A string setting, or nil when it is not declared as one.
  public static func string(_ key: String) -> String? {
    if case .string(let value)? = values[key] { return value }
    return nil
  }

  /// A Boolean setting, or nil when it is not declared as one.
  public static func boolean(_ key: String) -> Bool? {
    if case .boolean(let value)? = values[key] { return value }
    return nil
  }

  /// An integer setting, or nil when it is not declared as one.
  public static func integer(_ key: String) -> Int? {
    if case .integer(let value)? = values[key] { return value }
    return nil
  }

  static var values: [String: Value] { ProviderRuntime.settings }

  /// A value as the host sends it.
  enum Value: Decodable, Equatable {
    case string(String)
    case boolean(Bool)
    case integer(Int)

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let value = try? container.decode(Bool.self) {
        self = .boolean(value)
      } else if let value = try? container.decode(Int.self) {
        self = .integer(value)
      } else {
        self = .string(try container.decode(String.self))
      }
    }
  }

  /// The settings in a host table, when the host is new enough to send them (ABI 1.1).
  static func read(from host: UnsafePointer<tp_host>) -> [String: Value] {
    guard let offset = MemoryLayout<tp_host>.offset(of: \.settings_json),
      host.pointee.struct_size >= offset + MemoryLayout<UnsafePointer<CChar>?>.size,
      let json = host.pointee.settings_json
    else { return [:] }
    return (try? JSONDecoder().decode([String: Value].self, from: Data(String(cString: json).utf8))) ?? [:]
  }
}
