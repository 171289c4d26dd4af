/// A fast reader for the XML property lists manifests are written in.
///
/// Foundation's `PropertyListDecoder` reads every format, but through
/// `Decodable` it costs about a hundred times more than the files are worth,
/// and listing a thousand bundles cold must stay within 100 ms. This reader
/// handles the XML subset manifests use (dict, array, key, string, integer,
/// real, true, false, comments, the five XML entities and character
/// references) and returns nil for anything else (data, date, CDATA, malformed
/// input), in which case the caller asks Foundation, which then decides.
/// `PropertyListLimits` has bounded size and depth before either runs.
struct XMLPropertyListReader {
  private let bytes: [UInt8]
  private var index = 0

  /// The top-level value of an XML property list, or nil to defer to Foundation.
  static func read(_ bytes: [UInt8]) -> PropertyListValue? {
    var reader = XMLPropertyListReader(bytes: bytes)
    return reader.document()
  }

  private init(bytes: [UInt8]) { self.bytes = bytes }

  private mutating func document() -> PropertyListValue? {
    skipMisc()
    guard skip("<plist"), let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
    index = close + 1
    guard let value = value() else { return nil }
    skipMisc()
    guard skip("</plist>") else { return nil }
    skipMisc()
    return index == bytes.count ? value : nil
  }

  private mutating func value() -> PropertyListValue? {
    skipMisc()
    guard let name = tag() else { return nil }
    switch name {
    case "string": return text(until: "</string>").map(PropertyListValue.string)
    case "string/": return .string("")
    case "true/": return .boolean(true)
    case "false/": return .boolean(false)
    case "dict/": return .dictionary([:])
    case "array/": return .array([])
    case "integer":
      guard let text = text(until: "</integer>"), let value = Int(text) else { return nil }
      return .integer(value)
    case "real":
      guard let text = text(until: "</real>"), let value = Double(text) else { return nil }
      return .real(value)
    case "dict":
      var entries: [String: PropertyListValue] = [:]
      while true {
        skipMisc()
        if skip("</dict>") { return .dictionary(entries) }
        guard tag() == "key", let key = text(until: "</key>"), entries[key] == nil, let value = value() else { return nil }
        entries[key] = value
      }
    case "array":
      var elements: [PropertyListValue] = []
      while true {
        skipMisc()
        if skip("</array>") { return .array(elements) }
        guard let element = value() else { return nil }
        elements.append(element)
      }
    default:
      return nil
    }
  }

  /// Reads `<name>` or `<name/>` (without attributes) and returns `name` or `name/`.
  private mutating func tag() -> String? {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "<"),
      let close = bytes[index...].prefix(16).firstIndex(of: UInt8(ascii: ">"))
    else { return nil }
    let name = String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
    index = close + 1
    return name
  }

  /// Character data up to `terminator`, with entities decoded; nil for markup inside it.
  private mutating func text(until terminator: String) -> String? {
    var decoded: [UInt8] = []
    while index < bytes.count {
      guard let special = bytes[index...].firstIndex(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else {
        return nil
      }
      decoded += bytes[index..<special]
      index = special
      if bytes[special] == UInt8(ascii: "<") {
        guard skip(terminator) else { return nil }
        return String(validating: decoded, as: UTF8.self)
      }
      guard let semicolon = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")),
        let scalar = Self.entity(String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self))
      else { return nil }
      decoded += Array(String(Character(scalar)).utf8)
      index = semicolon + 1
    }
    return nil
  }

  private static func entity(_ name: String) -> Unicode.Scalar? {
    switch name {
    case "lt": "<"
    case "gt": ">"
    case "amp": "&"
    case "quot": "\""
    case "apos": "'"
    default:
      if name.hasPrefix("#x") { UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init) }
      else if name.hasPrefix("#") { UInt32(name.dropFirst(1)).flatMap(Unicode.Scalar.init) }
      else { nil }
    }
  }

  /// Skips whitespace, comments, the XML declaration and the DOCTYPE.
  private mutating func skipMisc() {
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
        index += 1
      } else if skip("<!--") {
        skip(past: "-->")
      } else if skip("<?") {
        skip(past: "?>")
      } else if skip("<!DOCTYPE") {
        skip(past: ">")
      } else {
        return
      }
    }
  }

  /// Consumes `literal` if the input continues with it.
  private mutating func skip(_ literal: String) -> Bool {
    let count = literal.utf8.count
    guard index + count <= bytes.count, bytes[index..<index + count].elementsEqual(literal.utf8) else { return false }
    index += count
    return true
  }

  private mutating func skip(past literal: String) {
    while index < bytes.count && !skip(literal) { index += 1 }
  }
}
