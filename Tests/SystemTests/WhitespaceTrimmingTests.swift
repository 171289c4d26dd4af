import System
import Testing

/// Trimming decides on bytes when the ends are ASCII and on grapheme
/// clusters otherwise; both ways give what the clusters alone give.
@Suite struct WhitespaceTrimmingTests {
  static let cases: [(String, String)] = [
    ("El gato.", "El gato."),
    ("  El gato.\n", "El gato."),
    ("\t\r\n", ""),
    ("", ""),
    ("a", "a"),
    ("\r\nline\r\n", "line"),
    ("\u{A0}no-break spaces\u{A0}", "no-break spaces"),
    ("\u{3000}ideographic space\u{2003}", "ideographic space"),
    (" \u{A0} mixed \u{85}", "mixed"),
    ("café ", "café"),
    (" ñandú", "ñandú"),
    ("日本 ", "日本"),
    // A space with a combining mark is one cluster: kept whole or cut whole, as the clusters say.
    (" \u{301}accent", String(Substring(" \u{301}accent").drop { $0.isWhitespace })),
    ("x\u{301} ", "x\u{301}"),
    ("emoji 👍🏽 ", "emoji 👍🏽"),
  ]

  @Test(arguments: cases)
  func whitespaceIsTrimmedAsTheClustersSay(_ text: String, _ expected: String) {
    #expect(text.trimmingWhitespace() == expected)
    #expect(Substring(text).trimmingWhitespace() == expected)
    // The result's bytes, not only its clusters: nothing cut in the middle of one.
    #expect(Array(text.trimmingWhitespace().utf8) == Array(expected.utf8))
  }
}
