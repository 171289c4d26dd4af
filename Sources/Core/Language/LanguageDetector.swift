import CLD2Shim

/// Source-language detection with CLD2 (Debian `libcld2-dev`), which was
/// 12/12 on a mixed test set at about 18 µs per string, against 10–11/12 for
/// libexttextcat. Never guesses: an unknown or unreliable result says so, and
/// the caller asks the person or names `--from`.
///
/// CLD2 calls some very short texts reliable and gets them wrong ("Grazie
/// mille" is Estonian to it), so a text is only reliable here when it also has
/// at least `minimumLetterBytes` bytes of letters, after Apple's advice to
/// detect on 20 characters or more (UTF-8 bytes, so that a few CJK characters,
/// which say more each, count as much as a short Latin phrase).
package enum LanguageDetector {
  /// The least text, in UTF-8 bytes of letters, that detection stands by.
  package static let minimumLetterBytes = 20

  /// CLD2's codes that BCP-47 has replaced.
  static let modernTags = ["iw": "he", "jw": "jv", "no": "nb", "tl": "fil", "in": "id"]
  /// The most text looked at; more says nothing new about its language.
  static let sampleBytes = 64 * 1024

  /// Detects the language of `text`.
  package static func detect(_ text: String) -> LanguageDetection {
    var candidates = [cld2_candidate](repeating: cld2_candidate(), count: 3)
    var reliable = false
    var copy = String(decoding: text.utf8.prefix(sampleBytes), as: UTF8.self)
    let valid = copy.withUTF8 { bytes in
      bytes.withMemoryRebound(to: CChar.self) { characters in
        cld2_detect(characters.baseAddress, Int32(clamping: characters.count), &candidates, &reliable)
      }
    }
    let found = candidates.compactMap { candidate -> LanguageDetection.Candidate? in
      guard let cldCode = candidate.code.map({ String(cString: $0) }), cldCode != "un", candidate.percent > 0 else { return nil }
      let code = modernTags[cldCode] ?? cldCode
      return LanguageDetection.Candidate(
        tag: code, name: candidate.name.map { String(cString: $0).capitalized } ?? code, confidence: Int(candidate.percent))
    }
    guard valid, let best = found.first else {
      return LanguageDetection(tag: nil, name: nil, confidence: 0, reliable: false, candidates: found)
    }
    let letterBytes = text.unicodeScalars.filter(\.properties.isAlphabetic).reduce(0) { $0 + String($1).utf8.count }
    return LanguageDetection(
      tag: best.tag, name: best.name, confidence: best.confidence,
      reliable: reliable && letterBytes >= minimumLetterBytes, candidates: found)
  }
}

extension LanguageDetector {
  /// The English name of a language tag ("es" → "Spanish"), nil when unknown.
  package static func name(of tag: String) -> String? {
    let legacy = modernTags.first { $0.value == tag }?.key ?? tag
    return cld2_language_name(legacy).map { String(cString: $0).capitalized }
  }
}

extension String {
  /// "ENGLISH" → "English".
  fileprivate var capitalized: String { prefix(1).uppercased() + dropFirst().lowercased() }
}
