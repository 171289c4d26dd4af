import Synchronization
import System

/// The character set the terminal speaks. ncurses and `wcwidth` only know
/// the width of non-ASCII characters under a UTF-8 `LC_CTYPE`.
enum TerminalLocale {
  private static let prepared = Mutex<Bool?>(nil)

  /// Adopts the user's locale; when its character set is not UTF-8, uses
  /// `C.UTF-8` for character classification only. Returns whether text can
  /// be UTF-8 (false: ASCII stand-ins are drawn).
  @discardableResult
  static func prepare() -> Bool {
    prepared.withLock { state in
      if let state { return state }
      ProcessLocale.adoptEnvironment()
      var utf8 = isUTF8
      if !utf8 { utf8 = ProcessLocale.setCharacterClassification("C.UTF-8") && isUTF8 }
      state = utf8
      return utf8
    }
  }

  private static var isUTF8: Bool {
    guard let name = ProcessLocale.characterSet?.uppercased() else { return false }
    return name == "UTF-8" || name == "UTF8"
  }
}
