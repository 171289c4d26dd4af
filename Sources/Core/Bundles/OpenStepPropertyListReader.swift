import FoundationEssentials

/// Reads an OpenStep (old-style ASCII) property list in one pass, without
/// recursion, for the same reasons as `XMLPropertyListReader`.
///
/// The format: strings quoted with `"` or `'` (escapes `\n`, `\t` and the
/// like, `\ooo` octal and `\Uxxxx` UTF-16) or unquoted (letters, digits and
/// `_$+/:.-`), data as hexadecimal in `< >`, arrays `( a, b )` with an optional
/// trailing comma, dictionaries `{ key = value; }`, and `//` and `/* */`
/// comments. Every scalar is a string, as in the format. The top level must
/// be one value (a strings file's bare `key = value;` list is refused).
struct OpenStepPropertyListReader {
  private let bytes: [UInt8]
  private var index = 0
  private var builder = PropertyListBuilder()

  /// The top-level value of an OpenStep property list.
  static func read(_ bytes: [UInt8]) throws(PropertyListLimits.Violation) -> PropertyListValue {
    var reader = OpenStepPropertyListReader(bytes: bytes)
    do {
      return try reader.document()
    } catch .malformed(let reason) {
      throw .malformed("line \(reader.line): \(reason)")
    }
  }

  private init(bytes: [UInt8]) { self.bytes = bytes }

  private var line: Int { PropertyListLimits.line(of: index, in: bytes) }

  /// What may come next.
  private enum State {
    /// A value (or, in an array, its closing parenthesis).
    case value
    /// A dictionary key or the closing brace.
    case key
    /// The separator or terminator after a value.
    case separator
  }

  private mutating func document() throws(PropertyListLimits.Violation) -> PropertyListValue {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    var state = State.value
    while true {
      try skipSpace()
      if state == .separator && builder.depth == 0 { break }
      guard index < bytes.count else { throw .malformed("the file ends inside the property list") }
      let byte = bytes[index]
      switch state {
      case .key:
        if byte == UInt8(ascii: "}") {
          index += 1
          builder.close()
          state = .separator
        } else {
          guard let key = try string() else { throw .malformed("a dictionary key must be a string") }
          try builder.key(key)
          try skipSpace()
          guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
            throw .malformed("'=' must follow the key '\(key)'")
          }
          index += 1
          state = .value
        }
      case .value:
        switch byte {
        case UInt8(ascii: "{"):
          index += 1
          try builder.open(dictionary: true)
          state = .key
        case UInt8(ascii: "("):
          index += 1
          try builder.open(dictionary: false)
        case UInt8(ascii: ")") where builder.depth > 0 && !builder.isInDictionary:
          index += 1
          builder.close()
          state = .separator
        case UInt8(ascii: "<"):
          try builder.value(.data(try data()))
          state = .separator
        default:
          guard let text = try string() else { throw .malformed("'\(Unicode.Scalar(byte))' where a value must come") }
          try builder.value(.string(text))
          state = .separator
        }
      case .separator:
        index += 1
        if builder.isInDictionary {
          guard byte == UInt8(ascii: ";") else { throw .malformed("';' must end each dictionary entry") }
          state = .key
        } else if byte == UInt8(ascii: ",") {
          state = .value
        } else if byte == UInt8(ascii: ")") {
          builder.close()
        } else {
          throw .malformed("',' or ')' must follow an array element")
        }
      }
    }
    guard index == bytes.count else { throw .malformed("more after the top-level value") }
    guard let root = builder.root else { preconditionFailure("a separator at depth 0 follows the top-level value") }
    return root
  }

  // MARK: Tokens

  /// A quoted or unquoted string, or nil when none starts here.
  private mutating func string() throws(PropertyListLimits.Violation) -> String? {
    let first = bytes[index]
    guard first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") else {
      let start = index
      while index < bytes.count, Self.isUnquoted(bytes[index]) { index += 1 }
      return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }
    index += 1
    var text: [UInt8] = []
    var highSurrogate: UInt16?
    while true {
      guard let special = bytes[index...].firstIndex(where: { $0 == first || $0 == UInt8(ascii: "\\") }) else {
        throw .malformed("a quoted string that is not closed")
      }
      if special > index {
        guard highSurrogate == nil else { throw .malformed("a \\U escape of half a surrogate pair") }
        text += bytes[index..<special]
      }
      index = special + 1
      if bytes[special] == first {
        guard highSurrogate == nil else { throw .malformed("a \\U escape of half a surrogate pair") }
        guard let value = String(validating: text, as: UTF8.self) else { throw .malformed("a string that is not UTF-8") }
        return value
      }
      guard index < bytes.count else { throw .malformed("a quoted string that is not closed") }
      let escape = bytes[index]
      index += 1
      if escape == UInt8(ascii: "U") {
        var unit: UInt16 = 0
        var digits = 0
        while digits < 4, index < bytes.count, let nibble = Self.hexValue(bytes[index]) {
          unit = unit << 4 | UInt16(nibble)
          digits += 1
          index += 1
        }
        guard digits > 0 else { throw .malformed("\\U without hexadecimal digits") }
        if let high = highSurrogate {
          guard (0xDC00...0xDFFF).contains(unit) else { throw .malformed("a \\U escape of half a surrogate pair") }
          let scalar = Unicode.Scalar(0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(unit - 0xDC00))!
          text += Array(String(scalar).utf8)
          highSurrogate = nil
        } else if (0xD800...0xDBFF).contains(unit) {
          highSurrogate = unit
        } else {
          guard let scalar = Unicode.Scalar(unit) else { throw .malformed("a \\U escape of half a surrogate pair") }
          text += Array(String(scalar).utf8)
        }
        continue
      }
      guard highSurrogate == nil else { throw .malformed("a \\U escape of half a surrogate pair") }
      switch escape {
      case UInt8(ascii: "a"): text.append(0x07)
      case UInt8(ascii: "b"): text.append(0x08)
      case UInt8(ascii: "f"): text.append(0x0C)
      case UInt8(ascii: "n"): text.append(0x0A)
      case UInt8(ascii: "r"): text.append(0x0D)
      case UInt8(ascii: "t"): text.append(0x09)
      case UInt8(ascii: "v"): text.append(0x0B)
      case UInt8(ascii: "0")...UInt8(ascii: "7"):
        var value = UInt32(escape - UInt8(ascii: "0"))
        var digits = 1
        while digits < 3, index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index]) {
          value = value << 3 | UInt32(bytes[index] - UInt8(ascii: "0"))
          digits += 1
          index += 1
        }
        text += Array(String(Unicode.Scalar(UInt8(truncatingIfNeeded: value))).utf8)
      default: text.append(escape)  // \\, \", \' and any other character stand for themselves
      }
    }
  }

  /// `<hex digits>`.
  private mutating func data() throws(PropertyListLimits.Violation) -> Data {
    guard let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")),
      let value = PropertyListScalars.hex(bytes[(index + 1)..<close])
    else { throw .malformed("<data> must be pairs of hexadecimal digits closed by '>'") }
    index = close + 1
    return value
  }

  /// Skips whitespace and comments.
  private mutating func skipSpace() throws(PropertyListLimits.Violation) {
    while index < bytes.count {
      let byte = bytes[index]
      if PropertyListScalars.isWhitespace(byte) || byte == 0x0B || byte == 0x0C {
        index += 1
      } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
        index = bytes[index...].firstIndex(of: 0x0A) ?? bytes.count
      } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
        var search = index + 2
        while true {
          guard let star = bytes[search...].firstIndex(of: UInt8(ascii: "*")) else {
            throw .malformed("a /* comment that is not closed")
          }
          if star + 1 < bytes.count, bytes[star + 1] == UInt8(ascii: "/") {
            index = star + 2
            break
          }
          search = star + 1
        }
      } else {
        return
      }
    }
  }

  private static func isUnquoted(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."),
      UInt8(ascii: "-"):
      true
    default: false
    }
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
