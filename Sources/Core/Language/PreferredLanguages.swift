import FoundationEssentials

/// The user's preferred languages from the POSIX locale variables, most
/// preferred first, as language subtags (`es_ES.UTF-8` → `es`): the
/// counterpart of Apple's `Locale.preferredLanguages` for a target language.
/// (Foundation's `Locale.preferredLanguages` ignores these variables on Linux.)
package enum PreferredLanguages {
  /// `LANGUAGE` (a colon-separated list) when the locale is not C, then the
  /// first of `LC_ALL`, `LC_MESSAGES`, `LANG` that is set, as glibc reads them.
  package static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
    let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
    var languages: [String] = []
    if !isPOSIX(locale) { languages += (environment["LANGUAGE"] ?? "").split(separator: ":").map(String.init) }
    languages.append(locale)
    var seen: Set<String> = []
    return languages.compactMap(language(of:)).filter { seen.insert($0).inserted }
  }

  /// The target Apple picks when none is given: the most preferred language
  /// that is not the language of `source` (a BCP-47 tag), or nil.
  package static func target(
    for source: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String? {
    let sourceLanguage = source.lowercased().prefix { $0 != "-" && $0 != "_" }
    return current(environment: environment).first { $0 != sourceLanguage }
  }

  /// `es_ES.UTF-8@euro` → `es`; nil for `C`, `POSIX` and empty values.
  package static func language(of locale: String) -> String? {
    guard !isPOSIX(locale) else { return nil }
    let language = locale.prefix { $0 != "_" && $0 != "." && $0 != "@" && $0 != "-" }.lowercased()
    return (2...3).contains(language.count) && language.allSatisfy(\.isLetter) ? language : nil
  }

  private static func isPOSIX(_ locale: String) -> Bool {
    locale.isEmpty || locale == "C" || locale == "POSIX" || locale.hasPrefix("C.")
  }
}
