import Glibc

extension String {
  /// The text of `bytes` if they are valid UTF-8, else nil. ASCII, which
  /// cannot be invalid, takes `String(decoding:as:)`, several times faster
  /// than validating: a registry cache of 1,000 records spent more on
  /// validation than on the `stat` calls that check it.
  package init?(validatingUTF8 bytes: ArraySlice<UInt8>) {
    if bytes.allSatisfy({ $0 < 0x80 }) {
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
