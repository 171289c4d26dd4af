/// What a clipboard held, whole: every format its owner offered (plain
/// text, HTML, an image, a list of files), each as the bytes it gave, so
/// that a clipboard borrowed for a paste comes back as it was.
///
/// It crosses from the popover to its holder process (`clipboard-hold`) on
/// a pipe, encoded as lines of `<mime type> <byte count>` each followed by
/// the bytes; decoding refuses anything malformed or larger than the limits.
package struct ClipboardContents: Equatable, Sendable {
  /// One format: a MIME type (`text/html`, `image/png`,
  /// `text/plain;charset=utf-8`) and its bytes.
  package struct Format: Equatable, Sendable {
    package var mimeType: String
    package var bytes: [UInt8]

    package init(mimeType: String, bytes: [UInt8]) {
      self.mimeType = mimeType
      self.bytes = bytes
    }
  }

  /// The most bytes kept in all, and the most formats: a clipboard bigger
  /// than that (a huge image) is not borrowed whole, and so not borrowed.
  package static let byteLimit = 64 * 1024 * 1024
  package static let formatLimit = 64
  /// The MIME type of UTF-8 text, as GTK names it.
  package static let textType = "text/plain;charset=utf-8"

  package var formats: [Format]

  package init(formats: [Format]) { self.formats = formats }

  /// A clipboard holding only `text`.
  package init(text: String) { formats = [Format(mimeType: Self.textType, bytes: Array(text.utf8))] }

  /// The text it holds as UTF-8 text, if any.
  package var text: String? {
    formats.first { $0.mimeType == Self.textType }.map { String(decoding: $0.bytes, as: UTF8.self) }
  }

  /// The contents as they cross to the holder process.
  package var encoded: [UInt8] {
    var bytes: [UInt8] = []
    for format in formats {
      bytes += Array("\(format.mimeType) \(format.bytes.count)\n".utf8)
      bytes += format.bytes
    }
    return bytes
  }

  /// Decodes `encoded`; nil when it is malformed, names a MIME type that is
  /// not one (spaces, control characters, over 255 bytes) or exceeds the limits.
  package init?(decoding encoded: [UInt8]) {
    guard encoded.count <= Self.byteLimit + Self.formatLimit * 300 else { return nil }
    var formats: [Format] = []
    var index = 0
    while index < encoded.count {
      guard formats.count < Self.formatLimit,
        let end = encoded[index...].firstIndex(of: UInt8(ascii: "\n")), end - index <= 300
      else { return nil }
      let header = encoded[index..<end].split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
      guard header.count == 2, let count = Int(String(decoding: header[1], as: UTF8.self)), count >= 0,
        !header[0].isEmpty, header[0].count <= 255, header[0].allSatisfy({ $0 > 0x20 && $0 < 0x7f }),
        count <= encoded.count - end - 1
      else { return nil }
      let start = end + 1
      formats.append(
        Format(mimeType: String(decoding: header[0], as: UTF8.self), bytes: Array(encoded[start..<(start + count)])))
      index = start + count
    }
    self.formats = formats
  }
}
