import Glibc

// swift-format-ignore: AlwaysUseLowerCamelCase
/// Foundation's `NSLocalizedString` as iOS code calls it, reading the
/// provider's own bundle (`Bundle.provider`), as it reads the extension's
/// bundle on iOS, in the user's language: `NSLocalizedString("Hello",
/// comment: "")` finds `es.lproj/Localizable.strings` in the
/// `.translationprovider` folder when `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` or
/// `LANG` says Spanish. With fewer parameters than Foundation's, it is the
/// one a call without `tableName:`/`bundle:`/`value:` picks, also in a file
/// that imports Foundation; a call that names a bundle gets Foundation's.
public func NSLocalizedString(_ key: String, comment: String) -> String {
  Bundle.provider.localizedString(forKey: key, value: nil, table: nil, languages: UserLanguages.preferred)
}

/// `NSLocalizedString(_:tableName:comment:)`, reading `Bundle.provider`'s
/// table `tableName` in the user's language (see above).
// swift-format-ignore: AlwaysUseLowerCamelCase
public func NSLocalizedString(_ key: String, tableName: String?, comment: String) -> String {
  Bundle.provider.localizedString(forKey: key, value: nil, table: tableName, languages: UserLanguages.preferred)
}

extension Bundle {
  /// The string for `key` in the first of the bundle's localizations that
  /// `languages` prefer and that has it; else Foundation's own lookup.
  func localizedString(forKey key: String, value: String?, table: String?, languages: [String]) -> String {
    let missing = "\u{0}missing"
    for localization in UserLanguages.matches(of: languages, in: localizations.filter { $0 != "Base" }) {
      guard let path = path(forResource: localization, ofType: "lproj"), let folder = Bundle(path: path) else {
        continue
      }
      let found = folder.localizedString(forKey: key, value: missing, table: table)
      if found != missing { return found }
    }
    return localizedString(forKey: key, value: value, table: table)
  }
}

/// The user's languages as POSIX programs read them: `LANGUAGE` (a list),
/// then the first of `LC_ALL`, `LC_MESSAGES` and `LANG`, as tags Foundation
/// matches against `.lproj` names (`es_ES.UTF-8` becomes `es-ES`); none for
/// the C and POSIX locales. (Foundation's `Locale.preferredLanguages` does
/// not read them on Linux.)
enum UserLanguages {
  static var preferred: [String] {
    // getenv, not ProcessInfo's dictionary of the whole environment: read for every literal a view shows.
    let variable = { (name: String) in getenv(name).map { String(cString: $0) } }
    var names = (variable("LANGUAGE") ?? "").split(separator: ":").map(String.init)
    if let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap(variable).first(where: { !$0.isEmpty }) {
      names.append(locale)
    }
    return names.compactMap(tag(of:))
  }

  /// The `localizations` that match `languages`, best first: for each
  /// language, the localization with the same tag (`es-ES`, `es_ES`), then
  /// the one of its language alone (`es`). (corelibs' own
  /// `Bundle.preferredLocalizations(from:forPreferences:)` does not match
  /// `es-ES` with `es`.)
  static func matches(of languages: [String], in localizations: [String]) -> [String] {
    let normalized = { (tag: String) in tag.lowercased().replacingOccurrences(of: "_", with: "-") }
    var found: [String] = []
    for language in languages.map(normalized) {
      let base = String(language.split(separator: "-").first ?? "")
      for wanted in [language, base] {
        if let match = localizations.first(where: { normalized($0) == wanted }), !found.contains(match) {
          found.append(match)
        }
      }
    }
    return found
  }

  /// `es_ES.UTF-8@euro` → `es-ES`; nil for `C`, `POSIX` and empty names.
  static func tag(of name: String) -> String? {
    let base = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
    let language = base.split(separator: "@", maxSplits: 1).first.map(String.init) ?? ""
    guard !language.isEmpty, language != "C", language != "POSIX" else { return nil }
    return language.replacingOccurrences(of: "_", with: "-")
  }
}
