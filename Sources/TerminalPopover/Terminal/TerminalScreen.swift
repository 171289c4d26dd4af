import CNCursesW
import System

/// The person's terminal, through ncurses: opened on `/dev/tty`, so the
/// popover works while stdin and stdout are pipes, in raw mode with keypad
/// decoding, and restored by `restore()` (or, after a crash, by
/// `TerminalSignals`).
final class TerminalScreen {
  /// Whether colours are drawn (the terminal has them and `NO_COLOR` is unset).
  let usesColor: Bool
  /// Whether Unicode symbols can be drawn.
  let unicode: Bool

  /// The terminal's descriptor, readable when a key comes.
  let descriptor: FileDescriptor
  private let file: UnsafeMutablePointer<FILE>
  private let screen: OpaquePointer
  private var isRestored = false
  private static let accentPair: Int16 = 1

  /// Takes over the controlling terminal.
  /// - Throws: `PopoverError.noTerminal` without one,
  ///   `.unsupportedTerminal` when `TERM` cannot address the cursor.
  init(environment: [String: String]) throws(PopoverError) {
    let term = try Self.type(environment)
    unicode = TerminalLocale.prepare()
    let file: UnsafeMutablePointer<FILE>
    do { file = try Terminal.openStream() } catch { throw .noTerminal(error) }
    let descriptor = Terminal.descriptor(of: file)
    TerminalSignals.install(terminal: descriptor, mode: try? Terminal.mode(of: descriptor))
    guard let screen = newterm(term, file, file) else {
      TerminalSignals.uninstall()
      Terminal.closeStream(file)
      throw .unsupportedTerminal(term)
    }
    self.file = file
    self.descriptor = descriptor
    self.screen = screen
    set_term(screen)
    guard let address = tigetstr("cup"), Int(bitPattern: address) > 0 else {
      endwin()
      delscreen(screen)
      TerminalSignals.uninstall()
      Terminal.closeStream(file)
      throw .unsupportedTerminal(term)
    }
    TerminalSignals.setReset(Self.resetSequence())
    TerminalSignals.watchResizes()
    raw()
    noecho()
    nonl()
    keypad(th_stdscr(), true)
    set_escdelay(25)
    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
    usesColor = !noColor && has_colors()
    if usesColor {
      start_color()
      use_default_colors()
      init_pair(Self.accentPair, Int16(COLOR_CYAN), -1)
    }
  }

  deinit { restore() }

  /// The terminal's type from `TERM`.
  /// - Throws: `PopoverError.unsupportedTerminal` for none or `dumb`, which cannot place the cursor.
  static func type(_ environment: [String: String]) throws(PopoverError) -> String {
    let term = environment["TERM"] ?? ""
    guard !term.isEmpty, term != "dumb" else { throw .unsupportedTerminal(term) }
    return term
  }

  /// Rows and columns.
  var size: (rows: Int, columns: Int) { (Int(th_lines()), Int(th_columns())) }

  /// Replaces the screen with `lines` (each at its cell) and shows the caret at `cursor`, or hides it.
  func draw(_ lines: [(position: CellPosition, line: StyledLine)], cursor: CellPosition?) {
    werase(th_stdscr())
    for (position, line) in lines {
      wmove(th_stdscr(), Int32(position.line), Int32(position.column))
      for span in line.spans {
        wattr_set(th_stdscr(), attributes(span.style), span.style.contains(.accent) && usesColor ? Self.accentPair : 0, nil)
        var characters = span.text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
        waddnwstr(th_stdscr(), &characters, Int32(characters.count))
      }
    }
    wattr_set(th_stdscr(), 0, 0, nil)
    if let cursor {
      curs_set(1)
      wmove(th_stdscr(), Int32(cursor.line), Int32(cursor.column))
    } else {
      curs_set(0)
    }
    wrefresh(th_stdscr())
  }

  /// The next key, waiting at most `limit`; nil when none came.
  func readKey(waiting limit: Duration = .milliseconds(100)) -> Key? {
    wtimeout(th_stdscr(), limit.pollMilliseconds)
    var code: wint_t = 0
    switch wget_wch(th_stdscr(), &code) {
    case KEY_CODE_YES: return Self.key(code: Int32(code))
    case OK: break
    default: return nil
    }
    switch code {
    case 3: return .interrupt
    case 9: return .tab
    case 10, 13: return .enter
    case 27: return .escape
    case 8, 127: return .backspace
    default:
      guard code >= 32, let scalar = Unicode.Scalar(UInt32(code)) else { return nil }
      return .character(Character(scalar))
    }
  }

  /// Gives the terminal back as it was. Safe to call more than once.
  func restore() {
    guard !isRestored else { return }
    isRestored = true
    curs_set(1)
    endwin()
    delscreen(screen)
    Terminal.closeStream(file)
    TerminalSignals.uninstall()
  }

  private static func key(code: Int32) -> Key? {
    switch code {
    case KEY_UP: .up
    case KEY_DOWN: .down
    case KEY_LEFT: .left
    case KEY_RIGHT: .right
    case KEY_HOME: .home
    case KEY_END: .end
    case KEY_PPAGE: .pageUp
    case KEY_NPAGE: .pageDown
    case KEY_BACKSPACE: .backspace
    case KEY_DC: .delete
    case KEY_BTAB: .backTab
    case KEY_ENTER: .enter
    case KEY_RESIZE: .resize
    default: nil
    }
  }

  private func attributes(_ style: TextStyle) -> attr_t {
    var attributes: attr_t = 0
    if style.contains(.bold) { attributes |= th_attribute_bold() }
    if style.contains(.dim) { attributes |= th_attribute_dim() }
    if style.contains(.reverse) { attributes |= th_attribute_reverse() }
    if style.contains(.underline) { attributes |= th_attribute_underline() }
    return attributes
  }

  /// What puts the screen back after a crash: the terminal's own sequences
  /// to leave the alternate screen, show the cursor and drop attributes.
  private static func resetSequence() -> [UInt8] {
    ["rmcup", "cnorm", "sgr0"].flatMap { name -> [UInt8] in
      guard let value = tigetstr(name), Int(bitPattern: value) > 0 else { return [] }
      return Array(String(cString: value).utf8)
    }
  }
}
