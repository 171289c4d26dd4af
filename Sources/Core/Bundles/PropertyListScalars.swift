import FoundationEssentials
import System

/// The scalar encodings the property-list readers share: numbers, ISO 8601
/// dates, base64 and hexadecimal data. Each returns nil for text it does not
/// accept, and each is linear in its input; the readers turn nil into an error
/// naming the line.
enum PropertyListScalars {
  /// The longest number text accepted: longer ones are no manifest's, and
  /// bounding them keeps `strtod` cheap whatever the input.
  static let maximumNumberLength = 128

  /// A decimal or `0x` hexadecimal integer, optionally signed, that fits `Int`.
  static func integer(_ text: ArraySlice<UInt8>) -> Int? {
    var digits = trimmed(text)
    guard digits.count <= maximumNumberLength else { return nil }
    var negative = false
    if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
      negative = sign == UInt8(ascii: "-")
      digits = digits.dropFirst()
    }
    var radix = 10
    if digits.starts(with: "0x".utf8) || digits.starts(with: "0X".utf8) {
      radix = 16
      digits = digits.dropFirst(2)
    }
    guard !digits.isEmpty, let magnitude = UInt64(String(decoding: digits, as: UTF8.self), radix: radix) else { return nil }
    if negative {
      guard magnitude <= UInt64(Int.max) + 1 else { return nil }
      return magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
    }
    return magnitude <= UInt64(Int.max) ? Int(magnitude) : nil
  }

  /// A real number as Swift reads one (`nan`, `inf` and `infinity` included).
  static func real(_ text: ArraySlice<UInt8>) -> Double? {
    let digits = trimmed(text)
    guard !digits.isEmpty, digits.count <= maximumNumberLength else { return nil }
    return Double(String(decoding: digits, as: UTF8.self))
  }

  /// A date written `YYYY-MM-DDTHH:MM:SSZ`, as property lists write them,
  /// optionally with a fraction of a second.
  static func date(_ text: ArraySlice<UInt8>) -> Date? {
    let characters = Array(trimmed(text))
    guard characters.count >= 20, characters.count <= 40, characters.last == UInt8(ascii: "Z") else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for byte in characters[range] {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard characters[4] == UInt8(ascii: "-"), characters[7] == UInt8(ascii: "-"), characters[10] == UInt8(ascii: "T"),
      characters[13] == UInt8(ascii: ":"), characters[16] == UInt8(ascii: ":"),
      let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    var fraction = 0.0
    if characters.count > 20 {
      guard characters[19] == UInt8(ascii: "."), characters.count > 21,
        let digits = number(20..<characters.count - 1), characters.count <= 38
      else { return nil }
      var scale = 1.0
      for _ in 21..<characters.count { scale *= 10 }
      fraction = Double(digits) / scale
    }
    // Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
    let shifted = month <= 2 ? year - 1 : year
    let era = shifted / 400
    let yearOfEra = shifted - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + fraction)
  }

  /// Base64 with whitespace anywhere and optional `=` padding at the end.
  static func base64(_ text: ArraySlice<UInt8>) -> Data? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.count / 4 * 3)
    var accumulator: UInt32 = 0
    var bits = 0
    var padding = 0
    for byte in text {
      let sextet: UInt8
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): sextet = byte - UInt8(ascii: "A")
      case UInt8(ascii: "a")...UInt8(ascii: "z"): sextet = byte - UInt8(ascii: "a") + 26
      case UInt8(ascii: "0")...UInt8(ascii: "9"): sextet = byte - UInt8(ascii: "0") + 52
      case UInt8(ascii: "+"): sextet = 62
      case UInt8(ascii: "/"): sextet = 63
      case UInt8(ascii: "="):
        padding += 1
        continue
      case 0x20, 0x09, 0x0A, 0x0D: continue
      default: return nil
      }
      guard padding == 0 else { return nil }  // data after padding
      accumulator = accumulator << 6 | UInt32(sextet)
      bits += 6
      if bits >= 8 {
        bits -= 8
        bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
      }
    }
    guard padding <= 2 else { return nil }
    return Data(bytes)
  }

  /// Pairs of hexadecimal digits, with whitespace anywhere (OpenStep's `<0fa1 b2>`).
  static func hex(_ text: ArraySlice<UInt8>) -> Data? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.count / 2)
    var high: UInt8?
    for byte in text {
      let nibble: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = byte - UInt8(ascii: "A") + 10
      case 0x20, 0x09, 0x0A, 0x0D: continue
      default: return nil
      }
      if let first = high {
        bytes.append(first << 4 | nibble)
        high = nil
      } else {
        high = nibble
      }
    }
    return high == nil ? Data(bytes) : nil
  }

  /// Whether `byte` is XML whitespace (also OpenStep's, with a few more).
  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private static func trimmed(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var slice = text
    while let first = slice.first, isWhitespace(first) { slice = slice.dropFirst() }
    while let last = slice.last, isWhitespace(last) { slice = slice.dropLast() }
    return slice
  }
}
