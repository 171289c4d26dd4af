extension String {
  /// The text with control characters (C0, DEL and C1) shown as `\u{1B}`-style
  /// escapes, except those in `kept`, so that text from a provider or a bundle
  /// cannot move the cursor, change colours, write the clipboard (OSC 52) or
  /// otherwise drive the terminal it is shown on.
  package func escapingControlCharacters(keeping kept: Set<Unicode.Scalar> = ["\n", "\t"]) -> String {
    // A byte scan first: only a C0 byte that is not kept, DEL, or the lead
    // byte 0xC2 of U+0080–U+00BF (C1 and more) can start something to escape.
    // Walking the scalars of a 10,000-line listing cost more than reading it.
    let keptC0 = kept.reduce(UInt32(0)) { $1.value < 0x20 ? $0 | 1 << $1.value : $0 }
    let mayNeedEscapes =
      utf8.withContiguousStorageIfAvailable { bytes in
        bytes.contains { $0 < 0x20 ? keptC0 & 1 << UInt32($0) == 0 : $0 == 0x7F || $0 == 0xC2 }
      } ?? true
    guard mayNeedEscapes, unicodeScalars.contains(where: { $0.isControl && !kept.contains($0) }) else { return self }
    var escaped = ""
    for scalar in unicodeScalars {
      if scalar.isControl && !kept.contains(scalar) {
        escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }
}

extension Unicode.Scalar {
  /// C0 controls, DEL and C1 controls.
  fileprivate var isControl: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}
