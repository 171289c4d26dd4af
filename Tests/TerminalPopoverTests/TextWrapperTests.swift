import Testing

@testable import TerminalPopover

@Suite struct TextWrapperTests {
  init() { TerminalLocale.prepare() }

  @Test(arguments: [
    ("a", 1),
    ("é", 1),  // precomposed
    ("e\u{301}", 1),  // e + combining acute
    ("日本", 4),
    ("한국어", 6),
    ("😀", 2),
    ("👍🏽", 4),  // thumbs up + skin tone: two wide scalars, as ncurses counts them
    ("a\u{200D}b", 2),  // a joiner takes no column
  ])
  func countsColumnsAsTerminalsDo(text: String, columns: Int) {
    #expect(text.displayWidth == columns)
  }

  @Test(arguments: [
    ("Hello world", 5, ["Hello", "world"]),
    ("Hello world", 11, ["Hello world"]),
    ("Supercalifragilistic", 8, ["Supercal", "ifragili", "stic"]),
    ("日本語のテキスト", 6, ["日本語", "のテキ", "スト"]),
    ("one\n\ntwo", 10, ["one", "", "two"]),
    ("", 10, [""]),
    ("a  b", 10, ["a b"]),
    ("e\u{301}e\u{301}e\u{301}", 2, ["e\u{301}e\u{301}", "e\u{301}"]),
    ("😀😀😀", 3, ["😀", "😀", "😀"]),
  ])
  func wrapsToTheWidth(text: String, width: Int, lines: [String]) {
    let wrapped = TextWrapper.wrap(text, width: width)
    #expect(wrapped == lines)
    #expect(wrapped.allSatisfy { $0.displayWidth <= width })
  }

  @Test(arguments: [
    ("\u{1B}[2J", "\u{FFFD}[2J"),
    ("a\tb", "a    b"),
    ("a\r\nb", "a\nb"),
    ("\u{9B}31m", "\u{FFFD}31m"),
    ("\u{202E}evil", "\u{FFFD}evil"),
  ])
  func keepsControlCharactersOffTheTerminal(text: String, shown: String) {
    #expect(TextWrapper.sanitized(text) == shown)
  }
}
