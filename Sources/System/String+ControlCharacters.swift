extension String {
  /// The text with control characters (C0, DEL and C1) shown as `\u{1B}`-style
  /// escapes, except those in `kept`, so that text from a provider or a bundle
  /// cannot move the cursor, change colours, write the clipboard (OSC 52) or
  /// otherwise drive the terminal it is shown on.
  package func escapingControlCharacters(keeping kept: Set<Unicode.Scalar> = ["\n", "\t"]) -> String {
    guard unicodeScalars.contains(where: { $0.isControl && !kept.contains($0) }) else { return self }
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
