/// Finds where a document stops being JSON (RFC 8259), so that a provider
/// that forgot to escape a string hears the byte and the bytes around it,
/// not only that "the data is not valid JSON".
enum JSONSyntax {
  struct Failure: Error, Equatable {
    var offset: Int
    var reason: String
  }

  /// The first syntax error in `bytes`, or nil when they are one JSON value.
  static func firstError(in bytes: [UInt8]) -> Failure? {
    var scanner = Scanner(bytes: bytes)
    do throws(Failure) {
      scanner.skipSpace()
      try scanner.value(depth: 0)
      scanner.skipSpace()
      guard scanner.offset == bytes.count else { throw scanner.fail("more after the end of the document") }
      return nil
    } catch {
      return error
    }
  }

  /// `bytes` around `offset`, quoted, with control characters written out.
  static func snippet(of bytes: [UInt8], at offset: Int) -> String {
    let start = max(0, offset - 20)
    let end = min(bytes.count, offset + 20)
    let text = String(decoding: bytes[start..<end], as: UTF8.self)
    var escaped = ""
    for scalar in text.unicodeScalars {
      if scalar.value < 0x20 || scalar.value == 0x7f {
        escaped += "\\u{\(String(scalar.value, radix: 16))}"
      } else {
        escaped.unicodeScalars.append(scalar)
      }
    }
    return "'" + escaped + "'"
  }

  private struct Scanner {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func fail(_ reason: String) -> Failure { Failure(offset: offset, reason: reason) }

    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    mutating func skipSpace() {
      while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d { offset += 1 }
    }

    mutating func value(depth: Int) throws(Failure) {
      guard depth < 512 else { throw fail("nested too deep") }
      guard let byte = current else { throw fail("the document ends where a value should be") }
      switch byte {
      case UInt8(ascii: "{"): try object(depth: depth)
      case UInt8(ascii: "["): try array(depth: depth)
      case UInt8(ascii: "\""): try string()
      case UInt8(ascii: "t"): try literal("true")
      case UInt8(ascii: "f"): try literal("false")
      case UInt8(ascii: "n"): try literal("null")
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
      default: throw fail("unexpected \(describe(byte)) where a value should be")
      }
    }

    mutating func object(depth: Int) throws(Failure) {
      offset += 1
      skipSpace()
      if current == UInt8(ascii: "}") {
        offset += 1
        return
      }
      while true {
        guard current == UInt8(ascii: "\"") else { throw fail("expected a key in quotes") }
        try string()
        skipSpace()
        guard current == UInt8(ascii: ":") else { throw fail("expected ':' after a key") }
        offset += 1
        skipSpace()
        try value(depth: depth + 1)
        skipSpace()
        switch current {
        case UInt8(ascii: ","):
          offset += 1
          skipSpace()
        case UInt8(ascii: "}"):
          offset += 1
          return
        default: throw fail("expected ',' or '}' in an object")
        }
      }
    }

    mutating func array(depth: Int) throws(Failure) {
      offset += 1
      skipSpace()
      if current == UInt8(ascii: "]") {
        offset += 1
        return
      }
      while true {
        try value(depth: depth + 1)
        skipSpace()
        switch current {
        case UInt8(ascii: ","):
          offset += 1
          skipSpace()
        case UInt8(ascii: "]"):
          offset += 1
          return
        default: throw fail("expected ',' or ']' in an array")
        }
      }
    }

    mutating func string() throws(Failure) {
      offset += 1
      while let byte = current {
        switch byte {
        case UInt8(ascii: "\""):
          offset += 1
          return
        case UInt8(ascii: "\\"):
          offset += 1
          guard let escape = current else { break }
          if escape == UInt8(ascii: "u") {
            for _ in 0..<4 {
              offset += 1
              guard let hex = current, isHex(hex) else { throw fail("a \\u escape needs four hexadecimal digits") }
            }
          } else if !Array("\"\\/bfnrt".utf8).contains(escape) {
            throw fail("unknown escape '\\\(describe(escape))' in a string")
          }
          offset += 1
        case 0..<0x20:
          throw fail("unescaped \(describe(byte)) in a string")
        default:
          offset += 1
        }
      }
      throw fail("the document ends inside a string")
    }

    mutating func literal(_ word: String) throws(Failure) {
      for expected in word.utf8 {
        guard current == expected else { throw fail("expected '\(word)'") }
        offset += 1
      }
    }

    mutating func number() throws(Failure) {
      if current == UInt8(ascii: "-") { offset += 1 }
      guard let first = current, isDigit(first) else { throw fail("expected a digit") }
      while let byte = current, isDigit(byte) { offset += 1 }
      if current == UInt8(ascii: ".") {
        offset += 1
        guard let byte = current, isDigit(byte) else { throw fail("expected a digit after '.'") }
        while let byte = current, isDigit(byte) { offset += 1 }
      }
      if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
        offset += 1
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
        guard let byte = current, isDigit(byte) else { throw fail("expected a digit in the exponent") }
        while let byte = current, isDigit(byte) { offset += 1 }
      }
    }

    func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    func isHex(_ byte: UInt8) -> Bool {
      isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    func describe(_ byte: UInt8) -> String {
      switch byte {
      case 0x0a: "newline"
      case 0x0d: "carriage return"
      case 0x09: "tab"
      case 0x00: "NUL"
      case 0x20..<0x7f: "'\(Character(Unicode.Scalar(byte)))'"
      default: "byte 0x\(String(byte, radix: 16))"
      }
    }
  }
}
