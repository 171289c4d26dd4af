/// Apertium's plain-text format, as `apertium-destxt` and `apertium-retxt`
/// apply it around a translation pipeline. Done here, in the provider, so that
/// one warm pipeline serves every request: those two programs read to the end
/// of their input and cannot stay running between requests.
///
/// The rules were read off the Debian tools and are checked against them,
/// text by text, in `ApertiumSupportTests`.
public enum ApertiumText {
  /// The characters the stream format reserves; they travel backslash-escaped.
  static let reserved: Set<Unicode.Scalar> = ["\\", "[", "]", "^", "$", "@", "/", "<", ">", "{", "}"]
  /// What counts as a blank.
  static let blanks: Set<Unicode.Scalar> = [" ", "\t", "\n", "\r"]

  /// Text → stream format, as `apertium-destxt` does: reserved characters
  /// escaped; blanks other than a single space wrapped in superblanks `[…]`;
  /// a sentence break `.[]` before a blank holding two or more line breaks and
  /// at the end; NUL dropped. The result always ends in a blank, which
  /// null-flush mode needs before each `\0`.
  public static func deformat(_ text: String) -> String {
    var out = ""
    var blank = ""
    func flushBlank(atEnd: Bool) {
      let paragraph = blank.unicodeScalars.filter { $0 == "\n" }.count >= 2
      if atEnd || paragraph { out += ".[]" }
      if blank == " " {
        out += " "
      } else if !blank.isEmpty {
        out += "[" + blank + "]"
      }
      blank = ""
    }
    for scalar in text.unicodeScalars {
      if blanks.contains(scalar) {
        blank.unicodeScalars.append(scalar)
        continue
      }
      if !blank.isEmpty { flushBlank(atEnd: false) }
      if scalar == "\0" { continue }
      if reserved.contains(scalar) { out += "\\" }
      out.unicodeScalars.append(scalar)
    }
    flushBlank(atEnd: true)
    return out
  }

  /// Stream format → text, as `apertium-retxt` does: escapes undone,
  /// superblanks opened, and the sentence breaks `.[]` that `deformat` added
  /// (and any other empty superblank) removed.
  public static func reformat(_ stream: String) -> String {
    let scalars = Array(stream.unicodeScalars)
    var out = String.UnicodeScalarView()
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      switch scalar {
      case "\\":
        if index + 1 < scalars.count { out.append(scalars[index + 1]) }
        index += 2
      case "." where index + 2 < scalars.count && scalars[index + 1] == "[" && scalars[index + 2] == "]":
        index += 3
      case "[":
        index += 1
        while index < scalars.count && scalars[index] != "]" {
          if scalars[index] == "\\" { index += 1 }
          if index < scalars.count { out.append(scalars[index]) }
          index += 1
        }
        index += 1
      case "]":
        index += 1
      default:
        out.append(scalar)
        index += 1
      }
    }
    return String(out)
  }
}
