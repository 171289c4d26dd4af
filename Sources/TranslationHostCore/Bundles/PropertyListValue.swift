import FoundationEssentials

/// A property-list value of any type, so a manifest can be read without
/// trusting its types and each wrong one reported by key.
package indirect enum PropertyListValue: Decodable, Equatable, Sendable {
  case string(String)
  case boolean(Bool)
  case integer(Int)
  case real(Double)
  case date(Date)
  case data(Data)
  case array([PropertyListValue])
  case dictionary([String: PropertyListValue])

  package init(from decoder: any Decoder) throws {
    // Most values in a manifest are strings, then dictionaries and Booleans:
    // try them first, because every failed attempt builds and throws an error.
    let single = try decoder.singleValueContainer()
    if let value = try? single.decode(String.self) {
      self = .string(value)
    } else if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
      var entries: [String: PropertyListValue] = [:]
      for key in keyed.allKeys { entries[key.stringValue] = try keyed.decode(PropertyListValue.self, forKey: key) }
      self = .dictionary(entries)
    } else if let value = try? single.decode(Bool.self) {
      self = .boolean(value)
    } else if var unkeyed = try? decoder.unkeyedContainer() {
      var elements: [PropertyListValue] = []
      while !unkeyed.isAtEnd { elements.append(try unkeyed.decode(PropertyListValue.self)) }
      self = .array(elements)
    } else if let value = try? single.decode(Int.self) {
      self = .integer(value)
    } else if let value = try? single.decode(Double.self) {
      self = .real(value)
    } else if let value = try? single.decode(Date.self) {
      self = .date(value)
    } else {
      self = .data(try single.decode(Data.self))
    }
  }

  /// The property-list type name, as a person editing the file would write it.
  package var typeName: String {
    switch self {
    case .string: "string"
    case .boolean: "boolean"
    case .integer: "integer"
    case .real: "real"
    case .date: "date"
    case .data: "data"
    case .array: "array"
    case .dictionary: "dictionary"
    }
  }

  /// Parses a whole XML, binary or OpenStep property list.
  package static func parse(_ bytes: [UInt8]) throws -> PropertyListValue {
    if let value = XMLPropertyListReader.read(bytes) { return value }
    return try PropertyListDecoder().decode(PropertyListValue.self, from: Data(bytes))
  }

  private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
