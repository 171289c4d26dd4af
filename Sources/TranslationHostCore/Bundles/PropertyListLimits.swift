/// Bounds checked before a property list reaches Foundation's decoder, which
/// recurses once per nesting level (a deep enough file overflows the stack)
/// and decodes a shared binary object once per reference (a small file can
/// expand exponentially).
package enum PropertyListLimits {
  /// The largest manifest or entitlements file read.
  package static let maximumBytes = 1 << 20
  /// The deepest nesting of arrays and dictionaries accepted.
  package static let maximumDepth = 32
  /// The most objects a binary property list may expand to.
  package static let maximumObjects = 100_000

  /// Why a property list is refused before parsing.
  package enum Violation: Error, Equatable {
    case tooLarge(Int)
    case tooDeep
    case tooManyObjects
    case malformed(String)
  }

  /// Checks size, nesting and expansion of an XML or binary property list.
  package static func check(_ bytes: [UInt8]) throws(Violation) {
    guard bytes.count <= maximumBytes else { throw .tooLarge(bytes.count) }
    if bytes.starts(with: Array("bplist00".utf8)) {
      try checkBinary(bytes)
    } else {
      try checkXML(bytes)
    }
  }

  /// Counts open `array` and `dict` elements (with or without attributes or
  /// spaces, self-closing ones aside), skipping comments and CDATA.
  private static func checkXML(_ bytes: [UInt8]) throws(Violation) {
    var depth = 0
    var index = 0
    while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
      if bytes.matches(commentStart, at: open) {
        index = bytes.index(after: commentEnd, from: open + commentStart.count)
        continue
      }
      if bytes.matches(cdataStart, at: open) {
        index = bytes.index(after: cdataEnd, from: open + cdataStart.count)
        continue
      }
      guard let close = bytes[open...].firstIndex(of: UInt8(ascii: ">")) else { return }
      index = close + 1
      let tag = bytes[(open + 1)..<close]
      let name = tag.prefix { $0 != UInt8(ascii: "/") && $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
      let closing = tag.first == UInt8(ascii: "/")
      let elementName = closing ? tag.dropFirst().prefix { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D } : name
      guard elementName.elementsEqual("array".utf8) || elementName.elementsEqual("dict".utf8) else { continue }
      if closing {
        depth -= 1
      } else if tag.last != UInt8(ascii: "/") {
        depth += 1
        guard depth <= maximumDepth else { throw .tooDeep }
      }
    }
  }

  private static let commentStart = Array("<!--".utf8)
  private static let commentEnd = Array("-->".utf8)
  private static let cdataStart = Array("<![CDATA[".utf8)
  private static let cdataEnd = Array("]]>".utf8)

  /// Walks the object graph of a `bplist00` file from its top object.
  private static func checkBinary(_ bytes: [UInt8]) throws(Violation) {
    guard bytes.count >= 8 + 32 else { throw .malformed("shorter than a binary property list") }
    let trailer = bytes.count - 32
    let offsetSize = Int(bytes[trailer + 6])
    let referenceSize = Int(bytes[trailer + 7])
    let objectCount = try integer(bytes, at: trailer + 8, size: 8)
    let topObject = try integer(bytes, at: trailer + 16, size: 8)
    let tableOffset = try integer(bytes, at: trailer + 24, size: 8)
    guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), objectCount > 0, topObject < objectCount,
      tableOffset < trailer, objectCount <= (trailer - tableOffset) / offsetSize
    else { throw .malformed("inconsistent trailer") }

    func offset(of object: Int) throws(Violation) -> Int {
      guard object < objectCount else { throw .malformed("reference to object \(object) of \(objectCount)") }
      let value = try integer(bytes, at: tableOffset + object * offsetSize, size: offsetSize)
      guard value >= 8, value < tableOffset else { throw .malformed("object \(object) outside the object area") }
      return value
    }

    var visited = 0
    var stack: [(object: Int, depth: Int)] = [(topObject, 1)]
    while let (object, depth) = stack.popLast() {
      visited += 1
      guard visited <= maximumObjects else { throw .tooManyObjects }
      let start = try offset(of: object)
      let marker = bytes[start]
      let kind = marker >> 4
      guard kind == 0xA || kind == 0xC || kind == 0xD else { continue }  // array, set, dictionary
      guard depth <= maximumDepth else { throw .tooDeep }
      var count = Int(marker & 0x0F)
      var references = start + 1
      if count == 0x0F {
        guard references < tableOffset, bytes[references] >> 4 == 0x1 else { throw .malformed("bad count") }
        let size = 1 << Int(bytes[references] & 0x0F)
        count = try integer(bytes, at: references + 1, size: size)
        references += 1 + size
      }
      let total = kind == 0xD ? count * 2 : count
      guard total >= 0, total <= maximumObjects else { throw .tooManyObjects }
      for index in 0..<total {
        stack.append((try integer(bytes, at: references + index * referenceSize, size: referenceSize), depth + 1))
      }
    }
  }

  /// A big-endian unsigned integer of `size` bytes at `offset`.
  private static func integer(_ bytes: [UInt8], at offset: Int, size: Int) throws(Violation) -> Int {
    guard size <= 8, offset >= 0, offset + size <= bytes.count else { throw .malformed("truncated") }
    var value: UInt64 = 0
    for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
    guard value <= UInt64(Int.max / 2) else { throw .malformed("integer out of range") }
    return Int(value)
  }
}

extension [UInt8] {
  /// Whether `pattern` occurs at `offset`.
  fileprivate func matches(_ pattern: [UInt8], at offset: Int) -> Bool {
    offset + pattern.count <= count && self[offset..<offset + pattern.count].elementsEqual(pattern)
  }

  /// The index just past the first `pattern` at or after `offset`, or `count`.
  fileprivate func index(after pattern: [UInt8], from offset: Int) -> Int {
    var i = offset
    while i < count && !matches(pattern, at: i) { i += 1 }
    return Swift.min(i + pattern.count, count)
  }
}
