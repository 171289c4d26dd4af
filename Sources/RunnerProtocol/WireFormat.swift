/// The binary encoding of runner messages: tags as bytes, integers as
/// big-endian 32-bit values, strings as a length and UTF-8 bytes. A few times
/// cheaper than JSON, which matters in a round trip that must stay within 50 µs,
/// and strict: every read is bounds-checked and every string must be UTF-8.
package protocol WireCodable {
  func encode(to writer: inout WireWriter)
  init(from reader: inout WireReader) throws(ProtocolError)
}

/// Builds a message.
package struct WireWriter {
  package private(set) var bytes: [UInt8] = []

  package init() {}

  /// A writer whose storage has room for `capacity` bytes before it grows.
  package init(capacity: Int) { bytes.reserveCapacity(capacity) }

  /// How many bytes are written.
  package var count: Int { bytes.count }

  /// Forgets what was written, keeping the storage for the next message
  /// unless it grew beyond `limit` bytes (a large message's room is given back).
  /// Grown means doubled at least, as an array grows: storage reserved for
  /// `limit` bytes has a little more (what `malloc` rounded it up to), and
  /// taking that for growth made a new buffer of `limit` bytes for every message.
  package mutating func removeAll(keepingCapacityUpTo limit: Int) {
    if bytes.capacity >= 2 * limit {
      bytes = []
      bytes.reserveCapacity(limit)
    } else {
      bytes.removeAll(keepingCapacity: true)
    }
  }

  /// Calls `body` with the bytes written, in place.
  package func withBytes<T, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T {
    try bytes.withUnsafeBytes { buffer in Result { () throws(E) in try body(buffer) } }.get()
  }

  package mutating func tag(_ value: UInt8) { bytes.append(value) }

  package mutating func integer(_ value: Int32) {
    let bits = UInt32(bitPattern: value)
    bytes.append(UInt8(bits >> 24))
    bytes.append(UInt8((bits >> 16) & 0xff))
    bytes.append(UInt8((bits >> 8) & 0xff))
    bytes.append(UInt8(bits & 0xff))
  }

  /// Sets the integer written at `offset` (a frame's length, known once the message is written).
  package mutating func setInteger(_ value: Int32, at offset: Int) {
    let bits = UInt32(bitPattern: value)
    bytes[offset] = UInt8(bits >> 24)
    bytes[offset + 1] = UInt8((bits >> 16) & 0xff)
    bytes[offset + 2] = UInt8((bits >> 8) & 0xff)
    bytes[offset + 3] = UInt8(bits & 0xff)
  }

  package mutating func boolean(_ value: Bool) { bytes.append(value ? 1 : 0) }

  package mutating func string(_ value: String) {
    integer(Int32(truncatingIfNeeded: value.utf8.count))
    bytes += value.utf8
  }

  package mutating func optionalString(_ value: String?) {
    boolean(value != nil)
    if let value { string(value) }
  }

  package mutating func strings(_ values: [String]) {
    integer(Int32(truncatingIfNeeded: values.count))
    for value in values { string(value) }
  }

  /// A `Double` as its IEEE 754 bits, high word first.
  package mutating func double(_ value: Double) {
    integer(Int32(truncatingIfNeeded: Int64(bitPattern: value.bitPattern) >> 32))
    integer(Int32(truncatingIfNeeded: Int64(bitPattern: value.bitPattern)))
  }
}

/// Reads a message, refusing anything truncated, oversized or not UTF-8.
///
/// It reads the bytes where they lie: a frame in `FrameChannel`'s buffer is
/// decoded without being copied out of it.
package struct WireReader {
  private let bytes: ArraySlice<UInt8>
  private var offset: Int

  package init(_ bytes: [UInt8]) { self.init(bytes[...]) }

  package init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    offset = bytes.startIndex
  }

  package var isAtEnd: Bool { offset == bytes.endIndex }

  package mutating func tag() throws(ProtocolError) -> UInt8 {
    guard offset < bytes.endIndex else { throw .malformed("message ends early") }
    defer { offset += 1 }
    return bytes[offset]
  }

  package mutating func integer() throws(ProtocolError) -> Int32 {
    guard offset + 4 <= bytes.endIndex else { throw .malformed("message ends early") }
    defer { offset += 4 }
    let bits =
      UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
      | UInt32(bytes[offset + 3])
    return Int32(bitPattern: bits)
  }

  package mutating func boolean() throws(ProtocolError) -> Bool {
    switch try tag() {
    case 0: false
    case 1: true
    case let other: throw .malformed("\(other) is not a Boolean")
    }
  }

  package mutating func string() throws(ProtocolError) -> String {
    let length = Int(try integer())
    guard length >= 0, offset + length <= bytes.endIndex else { throw .malformed("a string runs past the message") }
    defer { offset += length }
    guard let text = Self.validUTF8(bytes[offset..<offset + length]) else {
      throw .malformed("a string is not valid UTF-8")
    }
    return text
  }

  /// `bytes` as a string when they are valid UTF-8, else nil. Decoded by the
  /// standard library's fast path (which repairs what is not valid) and kept
  /// only if that changed nothing: `String(validating:as:)` is generic over
  /// the encoding and took about 25 instructions a byte, four times the
  /// rest of a request's decoding together, and so did comparing the two
  /// with `elementsEqual` (byte by byte, through iterators), which `same` does eight bytes at a time.
  private static func validUTF8(_ bytes: ArraySlice<UInt8>) -> String? {
    bytes.withUnsafeBufferPointer { input in
      var text = String(decoding: input, as: UTF8.self)
      return text.withUTF8 { same($0, input) } ? text : nil
    }
  }

  /// Whether `a` and `b` hold the same bytes.
  private static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    let (left, right) = (UnsafeRawBufferPointer(a), UnsafeRawBufferPointer(b))
    var offset = 0
    while offset + 8 <= left.count {
      guard
        left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      else { return false }
      offset += 8
    }
    while offset < left.count {
      guard left[offset] == right[offset] else { return false }
      offset += 1
    }
    return true
  }

  package mutating func optionalString() throws(ProtocolError) -> String? {
    try boolean() ? try string() : nil
  }

  package mutating func strings() throws(ProtocolError) -> [String] {
    let count = Int(try integer())
    // Each string needs at least its 4-byte length: a count beyond that is a lie.
    guard count >= 0, count <= (bytes.endIndex - offset) / 4 else { throw .malformed("a list is longer than the message") }
    var values: [String] = []
    values.reserveCapacity(count)
    for _ in 0..<count { values.append(try string()) }
    return values
  }

  package mutating func double() throws(ProtocolError) -> Double {
    let high = UInt64(UInt32(bitPattern: try integer()))
    let low = UInt64(UInt32(bitPattern: try integer()))
    return Double(bitPattern: high << 32 | low)
  }
}
