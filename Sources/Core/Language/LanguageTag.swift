/// Language tags as callers spell them, read once into the BCP-47 form that
/// providers are asked with, and matched against a provider's own tags the
/// way the `Translation` library matches them: the CLI, D-Bus and the
/// socket all read `es-ES`, `es_ES.UTF-8` and `en-us` alike.
package enum LanguageTag {
  /// `tag` in BCP-47's usual case, from either form: POSIX's
  /// `language_REGION.codeset@modifier` (`en_US.UTF-8` → `en-US`) or BCP 47
  /// in any case (`EN-us` → `en-US`, `zh-hant-tw` → `zh-Hant-TW`).
  /// Private-use and variant subtags are kept, in lower case.
  package static func normalized(_ tag: String) -> String {
    if isNormalInLowerCase(tag) { return tag }
    let trimmed = tag.prefix { $0 != "." && $0 != "@" }.replacing("_", with: "-")
    let subtags = trimmed.split(separator: "-", omittingEmptySubsequences: false)
    guard let language = subtags.first, !language.isEmpty else { return tag }
    var result = [language.lowercased()]
    var inPrivateUse = false
    for subtag in subtags.dropFirst() {
      if subtag.lowercased() == "x" { inPrivateUse = true }
      let isLetters = subtag.allSatisfy { $0.isASCII && $0.isLetter }
      if !inPrivateUse && subtag.count == 2 && isLetters {
        result.append(subtag.uppercased())
      } else if !inPrivateUse && subtag.count == 4 && isLetters {
        result.append(subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased())
      } else {
        result.append(subtag.lowercased())
      }
    }
    return result.joined(separator: "-")
  }

  /// The language subtag of `tag`, lower case (`pt-BR` → `pt`).
  package static func language(of tag: String) -> String {
    String(normalized(tag).prefix { $0 != "-" })
  }

  /// The region subtag of `tag`, if it has one (`pt-BR` → `BR`).
  package static func region(of tag: String) -> String? {
    let subtags = normalized(tag).split(separator: "-").dropFirst().prefix { $0.lowercased() != "x" }
    return subtags.first { ($0.count == 2 && $0.allSatisfy(\.isLetter)) || ($0.count == 3 && $0.allSatisfy(\.isNumber)) }
      .map(String.init)
  }

  /// Whether a provider's language `provided` serves a request for
  /// `requested`: the same tag, or the same language where the provider
  /// names no region of its own or the requested one (a provider's `es`
  /// serves `es-ES`; its `en-US` does not serve `en`). A tag with variant or
  /// private-use subtags (`en-x-rot13`, `ca-valencia`) matches only itself.
  package static func serves(_ provided: String, _ requested: String) -> Bool {
    let (provided, requested) = (normalized(provided), normalized(requested))
    if provided.lowercased() == requested.lowercased() { return true }
    guard isPlain(provided), isPlain(requested), language(of: provided) == language(of: requested) else { return false }
    return region(of: provided) == nil || region(of: provided) == region(of: requested)
  }

  /// Whether `first` and `second` name one language (`en-US` and `en-GB`
  /// do; `en` and `en-x-rot13` do not: a tag with variant or private-use
  /// subtags is a language of its own, as a provider uses it).
  package static func isSameLanguage(_ first: String, _ second: String) -> Bool {
    let (first, second) = (normalized(first), normalized(second))
    guard isPlain(first), isPlain(second) else { return first.lowercased() == second.lowercased() }
    return language(of: first) == language(of: second)
  }

  /// Whether `tag` has only a language, a script and a region (`zh-Hant-TW`, `es-419`).
  private static func isPlain(_ tag: String) -> Bool {
    tag.split(separator: "-", omittingEmptySubsequences: false).dropFirst().allSatisfy { subtag in
      (subtag.count == 4 || subtag.count == 2) && subtag.allSatisfy { $0.isASCII && $0.isLetter }
        || subtag.count == 3 && subtag.allSatisfy { $0.isASCII && $0.isNumber }
    }
  }

  /// Whether `tag` is already what `normalized` makes of it, in the form of
  /// most requests' tags (`en`, `es`, `en-x-rot13`, `es-419`): ASCII lower-case
  /// letters and digits, with no subtag that `normalized` would upper-case (a
  /// region of two letters, a script of four, before a private-use `x`).
  /// The service normalizes both tags of every request, and the general path
  /// (splitting, mapping case, joining Strings) was about a tenth of its CPU
  /// per request (issue 30); this is one pass over the bytes.
  private static func isNormalInLowerCase(_ tag: String) -> Bool {
    // Over contiguous bytes: a short tag's `utf8` view took some fifty instructions a byte.
    var tag = tag
    return tag.withUTF8(isNormalInLowerCase)
  }

  private static func isNormalInLowerCase(_ tag: UnsafeBufferPointer<UInt8>) -> Bool {
    var subtagIndex = 0
    var length = 0
    var lettersOnly = true
    var inPrivateUse = false
    var previous: UInt8 = 0
    // No nested function over these variables: capturing them made each a
    // checked heap box, most of this function's cost.
    for byte in tag {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"):
        length += 1
        previous = byte
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        length += 1
        lettersOnly = false
        previous = byte
      case UInt8(ascii: "-"):
        let privateUseBegins = subtagIndex > 0 && length == 1 && previous == UInt8(ascii: "x")
        guard subtagKeepsCase(index: subtagIndex, length: length, lettersOnly: lettersOnly, inPrivateUse: inPrivateUse)
        else { return false }
        (subtagIndex, length, lettersOnly) = (subtagIndex + 1, 0, true)
        if privateUseBegins { inPrivateUse = true }
        previous = byte
      default: return false
      }
    }
    return subtagKeepsCase(index: subtagIndex, length: length, lettersOnly: lettersOnly, inPrivateUse: inPrivateUse)
  }

  /// Whether the subtag that just ended, the `index`th, keeps its case.
  private static func subtagKeepsCase(index: Int, length: Int, lettersOnly: Bool, inPrivateUse: Bool) -> Bool {
    if index == 0 { return length > 0 }
    return inPrivateUse || !lettersOnly || (length != 2 && length != 4)
  }
}
