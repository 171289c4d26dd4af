import FoundationEssentials

/// A property-list value of any type, so a manifest can be read without
/// trusting its types and each wrong one reported by key.
package indirect enum PropertyListValue: Equatable, Sendable {
  case string(String)
  case boolean(Bool)
  case integer(Int)
  case real(Double)
  case date(Date)
  case data(Data)
  case array([PropertyListValue])
  case dictionary([String: PropertyListValue])

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

  /// Parses a whole XML, binary (`bplist00`) or OpenStep property list with
  /// our own readers, which are linear in the input and never recurse (see
  /// `PropertyListBuilder`); Foundation's parsers are not used for manifests,
  /// because they recurse once per level and keep the last of duplicate keys.
  package static func parse(_ bytes: [UInt8]) throws(PropertyListLimits.Violation) -> PropertyListValue {
    guard bytes.count <= PropertyListLimits.maximumBytes else { throw .tooLarge(bytes.count) }
    if bytes.starts(with: "bplist00".utf8) { return try BinaryPropertyListReader.read(bytes) }
    if bytes.starts(with: "bplist".utf8) { throw .malformed("a binary property list of a version other than 00") }
    if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
      throw .malformed("the file is UTF-16; save it as UTF-8")
    }
    let first = bytes.drop { PropertyListScalars.isWhitespace($0) || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }.first
    return first == UInt8(ascii: "<") ? try XMLPropertyListReader.read(bytes) : try OpenStepPropertyListReader.read(bytes)
  }
}
