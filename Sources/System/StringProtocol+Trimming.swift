extension StringProtocol {
  /// The text without leading and trailing whitespace.
  ///
  /// On bytes when the ends are ASCII (almost every text): a `Character`
  /// is a grapheme cluster, and finding each one from the ends took a
  /// Unicode property lookup per step (a tenth of an Apertium runner's own
  /// CPU per sentence, trimming every translation). When what is left has a
  /// non-ASCII byte at either end, that end may be whitespace or joined to
  /// what was cut (a combining mark after a space), and the clusters decide.
  package func trimmingWhitespace() -> String {
    var text = Substring(self)
    let bytes = text.utf8
    var (lower, upper) = (bytes.startIndex, bytes.endIndex)
    while lower < upper, Self.isASCIIWhitespace(bytes[lower]) { bytes.formIndex(after: &lower) }
    while lower < upper, Self.isASCIIWhitespace(bytes[bytes.index(before: upper)]) { bytes.formIndex(before: &upper) }
    if lower == upper { return "" }
    if bytes[lower] < 0x80 && bytes[bytes.index(before: upper)] < 0x80 { return String(text[lower..<upper]) }
    while text.first?.isWhitespace == true { text.removeFirst() }
    while text.last?.isWhitespace == true { text.removeLast() }
    return String(text)
  }

  /// Tab, line feed, vertical tab, form feed, carriage return, space.
  private static func isASCIIWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
}
