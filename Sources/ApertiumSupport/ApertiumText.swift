/// Apertium's plain-text format, as `apertium-destxt` and `apertium-retxt`
/// apply it around a translation pipeline. Done here, in the provider, so that
/// one warm pipeline serves every request: those two programs read to the end
/// of their input and cannot stay running between requests.
///
/// The rules were read off the Debian tools and are checked against them,
/// text by text, in `ApertiumSupportTests`.
public enum ApertiumText {
  /// The characters the stream format reserves; they travel backslash-escaped.
  /// All of them, and every blank, are ASCII, so the text is worked on as
  /// UTF-8 bytes: a multi-byte character is never one of them, and working on
  /// `Unicode.Scalar`s cost more CPU than the host's whole share of a batch.
  static func isReserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "\\"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "@"),
      UInt8(ascii: "/"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "{"), UInt8(ascii: "}"):
      true
    default: false
    }
  }

  /// What counts as a blank.
  static func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
  }

  /// Text → stream format, as `apertium-destxt` does: reserved characters
  /// escaped; blanks other than a single space wrapped in superblanks `[…]`;
  /// a sentence break `.[]` before a blank holding two or more line breaks and
  /// at the end; NUL dropped. The result always ends in a blank, which
  /// null-flush mode needs before each `\0`.
  public static func deformat(_ text: String) -> String {
    var out: [UInt8] = []
    deformat(text, into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// `deformat(text)`, appended to `out` as UTF-8.
  public static func deformat(_ text: String, into out: inout [UInt8]) {
    var blankStart = -1
    var lineBreaks = 0
    var index = 0
    func flushBlank(_ blank: ArraySlice<UInt8>, atEnd: Bool) {
      if atEnd || lineBreaks >= 2 { out += [UInt8(ascii: "."), UInt8(ascii: "["), UInt8(ascii: "]")] }
      if blank.count == 1 && blank.first == UInt8(ascii: " ") {
        out.append(UInt8(ascii: " "))
      } else if !blank.isEmpty {
        out.append(UInt8(ascii: "["))
        out += blank
        out.append(UInt8(ascii: "]"))
      }
      lineBreaks = 0
    }
    let all = Array(text.utf8)
    out.reserveCapacity(out.count + all.count + 8)
    while index < all.count {
      let byte = all[index]
      if isBlank(byte) {
        if blankStart < 0 { blankStart = index }
        if byte == UInt8(ascii: "\n") { lineBreaks += 1 }
        index += 1
        continue
      }
      if blankStart >= 0 {
        flushBlank(all[blankStart..<index], atEnd: false)
        blankStart = -1
      }
      index += 1
      if byte == 0 { continue }
      if isReserved(byte) { out.append(UInt8(ascii: "\\")) }
      out.append(byte)
    }
    flushBlank(blankStart >= 0 ? all[blankStart...] : all[all.endIndex...], atEnd: true)
  }

  /// The superblank that separates texts sharing one null flush (`ApertiumPipeline`):
  /// stages pass superblanks through in order, and `deformat` never makes
  /// this one (its superblanks hold blanks only; a `[` of the text is escaped).
  public static let textBreak: [UInt8] = Array("[|]".utf8)

  /// Stream format → text, as `apertium-retxt` does: escapes undone,
  /// superblanks opened, and the sentence breaks `.[]` that `deformat` added
  /// (and any other empty superblank) removed.
  public static func reformat(_ stream: String) -> String { reformat(Array(stream.utf8)[...]) }

  /// `reformat` of a stream given as UTF-8 bytes.
  public static func reformat(_ stream: ArraySlice<UInt8>) -> String {
    var texts: [String] = []
    reformat(stream, splittingAtTextBreaks: false, into: &texts)
    return texts[0]
  }

  /// The texts of a stream that holds several, separated by `textBreak`,
  /// each reformatted as `reformat` does.
  public static func reformatTexts(_ stream: ArraySlice<UInt8>) -> [String] {
    var texts: [String] = []
    reformat(stream, splittingAtTextBreaks: true, into: &texts)
    return texts
  }

  private static func reformat(_ stream: ArraySlice<UInt8>, splittingAtTextBreaks: Bool, into texts: inout [String]) {
    let backslash = UInt8(ascii: "\\")
    let (open, close, dot) = (UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "."))
    var out: [UInt8] = []
    out.reserveCapacity(stream.count)
    var index = stream.startIndex
    let end = stream.endIndex
    while index < end {
      let byte = stream[index]
      switch byte {
      case backslash:
        if index + 1 < end { out.append(stream[index + 1]) }
        index += 2
      case dot where index + 2 < end && stream[index + 1] == open && stream[index + 2] == close:
        index += 3
      case open where splittingAtTextBreaks && stream[index...].starts(with: textBreak):
        texts.append(String(decoding: out, as: UTF8.self))
        out.removeAll(keepingCapacity: true)
        index += textBreak.count
      case open:
        index += 1
        while index < end && stream[index] != close {
          if stream[index] == backslash { index += 1 }
          if index < end { out.append(stream[index]) }
          index += 1
        }
        index += 1
      case close:
        index += 1
      default:
        out.append(byte)
        index += 1
      }
    }
    texts.append(String(decoding: out, as: UTF8.self))
  }
}
