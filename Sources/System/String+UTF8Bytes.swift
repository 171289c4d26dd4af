import Glibc

extension String {
  /// The text of `bytes` if they are valid UTF-8, else nil. ASCII, which
  /// cannot be invalid, takes `String(decoding:as:)`, several times faster
  /// than validating: a registry cache of 1,000 records spent more on
  /// validation than on the `stat` calls that check it.
  package init?(validatingUTF8 bytes: ArraySlice<UInt8>) {
    if bytes.withUnsafeBytes(allASCII) {
      self = String(decoding: bytes, as: UTF8.self)
      return
    }
    guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
    self = text
  }
}

extension ArraySlice where Element == UInt8 {
  /// The index of the first `byte` at or after `start`, found with `memchr`:
  /// the generic `firstIndex(of:)` walks a slice byte by byte through its
  /// bounds checks, which made splitting the registry cache into fields
  /// cost a third of a warm listing.
  package func firstIndex(ofByte byte: UInt8, from start: Int) -> Int? {
    guard start < endIndex else { return nil }
    return withUnsafeBufferPointer { buffer -> Int? in
      let offset = start - startIndex
      guard let base = buffer.baseAddress,
        let found = memchr(base + offset, Int32(byte), buffer.count - offset)
      else { return nil }
      return startIndex + (UnsafeRawPointer(found) - UnsafeRawPointer(base))
    }
  }
}

extension ArraySlice where Element == UInt8 {
  /// The little-endian `UInt32` whose bytes start at `index`, or nil when the
  /// slice ends before its last byte: one unaligned load, where assembling it
  /// from bounds-checked bytes cost a registry cache record more than its `stat`s.
  package func littleEndianUInt32(at index: Int) -> UInt32? {
    guard index >= startIndex, index <= endIndex - 4 else { return nil }
    return withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: index - startIndex, as: UInt32.self)) }
  }

  /// Whether these are the UTF-8 bytes of `text`, compared with `memcmp`.
  package func isUTF8(of text: String) -> Bool {
    text.utf8.withContiguousStorageIfAvailable { other in
      other.count == count
        && withUnsafeBufferPointer { mine in other.count == 0 || memcmp(mine.baseAddress!, other.baseAddress!, count) == 0 }
    } ?? elementsEqual(text.utf8)
  }
}

extension String {
  /// Whether the text is ASCII only.
  package var isASCII: Bool {
    utf8.withContiguousStorageIfAvailable { allASCII(UnsafeRawBufferPointer($0)) } ?? utf8.allSatisfy { $0 < 0x80 }
  }
}

extension Array where Element == UInt8 {
  /// Appends `value` as its four little-endian bytes.
  package mutating func appendLittleEndian(_ value: UInt32) {
    Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
  }

  /// Appends the UTF-8 bytes of `text`, copied at once.
  package mutating func append(utf8 text: String) {
    if text.utf8.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) == nil { append(contentsOf: text.utf8) }
  }
}

/// Whether every byte is below 0x80, checked eight at a time: byte by byte,
/// checking the names and texts of 10,000 bundles cost more than reading them.
private func allASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
  var offset = 0
  while offset + 8 <= bytes.count {
    if bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
    offset += 8
  }
  while offset < bytes.count {
    if bytes[offset] >= 0x80 { return false }
    offset += 1
  }
  return true
}
