import Glibc

/// The C library's locale for this process, which decides how `wcwidth`
/// and ncurses see characters.
package enum ProcessLocale {
  /// Adopts the locale the environment names (`LC_ALL`, `LC_*`, `LANG`).
  package static func adoptEnvironment() {
    setlocale(LC_ALL, "")
  }

  /// Classifies characters (`LC_CTYPE`) as the locale `name` does; false
  /// when that locale is not installed, and nothing changed.
  package static func setCharacterClassification(_ name: String) -> Bool {
    setlocale(LC_CTYPE, name) != nil
  }

  /// The character set characters are classified in (`nl_langinfo(CODESET)`), such as "UTF-8".
  package static var characterSet: String? {
    nl_langinfo(nl_item(CODESET)).map { String(cString: $0) }
  }
}
