/// Apertium names languages with ISO 639-3 codes (`eng`, `spa`), sometimes
/// with a variant (`eng_US`); the host speaks BCP-47 (`en`, `es`, `en-US`).
/// The mapping happens here, at the provider's boundary.
public enum ApertiumLanguage {
  /// ISO 639-3 → ISO 639-1 for the languages Apertium has pairs for.
  static let twoLetter: [String: String] = [
    "afr": "af", "ara": "ar", "arg": "an", "bel": "be", "bre": "br", "bul": "bg", "cat": "ca", "ces": "cs",
    "cym": "cy", "dan": "da", "deu": "de", "ell": "el", "eng": "en", "epo": "eo", "est": "et", "eus": "eu",
    "fao": "fo", "fin": "fi", "fra": "fr", "gle": "ga", "glg": "gl", "heb": "he", "hbs": "sh", "hin": "hi",
    "hrv": "hr", "hun": "hu", "ind": "id", "isl": "is", "ita": "it", "kaz": "kk", "kir": "ky", "lav": "lv", "lit": "lt",
    "mkd": "mk", "mlt": "mt", "nld": "nl", "nno": "nn", "nob": "nb", "oci": "oc", "pol": "pl", "por": "pt",
    "ron": "ro", "rus": "ru", "slk": "sk", "slv": "sl", "spa": "es", "sqi": "sq", "srp": "sr", "swe": "sv",
    "tat": "tt", "tur": "tr", "ukr": "uk", "urd": "ur", "uzb": "uz",
  ]

  /// The BCP-47 tag for an Apertium code: `eng` → `en`, `eng_US` → `en-US`,
  /// `ast` → `ast` (no two-letter code).
  public static func tag(forCode code: String) -> String {
    let parts = code.split(separator: "_", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
    let language = twoLetter[parts[0]] ?? parts[0]
    return parts.count == 2 ? "\(language)-\(parts[1])" : language
  }

  /// The Apertium code for a BCP-47 tag, the inverse of `tag(forCode:)`;
  /// case-insensitive, `_` and `-` alike.
  public static func code(forTag tag: String) -> String {
    let parts = tag.replacingUnderscores.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
    let language = parts[0].lowercased()
    let threeLetter = twoLetter.first { $0.value == language }?.key ?? language
    return parts.count == 2 ? "\(threeLetter)_\(parts[1].uppercased())" : threeLetter
  }
}

extension String {
  fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? "-" : $0 }) }
}
