import CTranslationProvider

extension tp_string {
  /// The string's bytes decoded as UTF-8 (invalid sequences become U+FFFD).
  var string: String {
    guard let data, length > 0 else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
  }
}

extension String {
  /// Calls `body` with the string as a borrowed `tp_string`.
  func withTPString<Result>(_ body: (tp_string) throws -> Result) rethrows -> Result {
    var copy = self
    return try copy.withUTF8 { bytes in
      try body(
        tp_string(data: bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, length: bytes.count))
    }
  }
}
