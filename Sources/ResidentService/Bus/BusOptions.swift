import CGDBus
import Service
import System

/// The `a{sv}` options of a call (`Present`, `TranslateWithOptions`), as the
/// portals read theirs: unknown keys are ignored, so callers may pass the
/// options of later versions; a known key with another type is `InvalidArgs`.
/// Values are read once into Swift values; nothing of the GVariant is kept.
struct BusOptions {
  private var values: [String: Value] = [:]

  private enum Value {
    case string(String)
    case strings([String])
    case boolean(Bool)
    case double(Double)
    case point(Int32, Int32)
  }

  /// Reads `dictionary` (borrowed), keeping the keys of `types` (key → D-Bus type string).
  init(_ dictionary: OpaquePointer?, types: [String: String]) throws(BusError) {
    guard let dictionary else { return }
    var problem: BusError?
    var values: [String: Value] = [:]
    GVariantCoding.forEachEntry(dictionary) { key, value in
      guard let expected = types[key], problem == nil else { return }
      let found = GVariantCoding.typeString(value)
      guard found == expected else {
        problem = .invalidArguments("option '\(key)' must have type '\(expected)', not '\(found)'")
        return
      }
      switch expected {
      case "s": values[key] = .string(GVariantCoding.string(value))
      case "as": values[key] = .strings(GVariantCoding.strings(value))
      case "b": values[key] = .boolean(g_variant_get_boolean(value) != 0)
      case "d": values[key] = .double(g_variant_get_double(value))
      case "(ii)":
        let x = GVariantCoding.withChild(value, 0) { g_variant_get_int32($0) }
        let y = GVariantCoding.withChild(value, 1) { g_variant_get_int32($0) }
        values[key] = .point(x, y)
      default: preconditionFailure("BusOptions cannot read type '\(expected)'")
      }
    }
    if let problem { throw problem }
    self.values = values
  }

  func string(_ key: String) -> String? {
    if case .string(let value)? = values[key] { value } else { nil }
  }

  func strings(_ key: String) -> [String]? {
    if case .strings(let value)? = values[key] { value } else { nil }
  }

  func boolean(_ key: String) -> Bool? {
    if case .boolean(let value)? = values[key] { value } else { nil }
  }

  func point(_ key: String) -> (x: Int32, y: Int32)? {
    if case .point(let x, let y)? = values[key] { (x, y) } else { nil }
  }

  /// The option `timeout`: seconds, as the socket's timeout field, positive
  /// and finite (the service caps it as the socket's); nil when not given.
  func timeout() throws(BusError) -> Duration? {
    guard case .double(let seconds)? = values["timeout"] else { return nil }
    guard seconds.isFinite, seconds > 0 else {
      throw .invalidArguments("option 'timeout' is \(seconds); it takes a positive number of seconds, as on the socket")
    }
    return .seconds(saturating: seconds)
  }
}
