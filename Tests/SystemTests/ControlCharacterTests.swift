import System
import Testing

/// Text from a bundle or a provider never reaches a terminal with its control
/// characters, whether the byte scan in front finds nothing (and the text is
/// returned as it is) or sends it to the scalar walk.
@Suite struct ControlCharacterTests {
  static let cases: [(String, Set<Unicode.Scalar>, String)] = [
    ("plain text", ["\n", "\t"], "plain text"),
    ("tab\tand\nnewline", ["\n", "\t"], "tab\tand\nnewline"),
    ("escape\u{1B}[31mred", ["\n", "\t"], "escape\\u{1B}[31mred"),
    ("bell\u{07}", ["\n", "\t"], "bell\\u{7}"),
    ("delete\u{7F}", ["\n", "\t"], "delete\\u{7F}"),
    ("c1 next line\u{85}and CSI\u{9B}", ["\n", "\t"], "c1 next line\\u{85}and CSI\\u{9B}"),
    ("no-break space\u{A0}, é, ñ, 日本", ["\n", "\t"], "no-break space\u{A0}, é, ñ, 日本"),
    ("tab\tand\nnewline", [], "tab\\u{9}and\\u{A}newline"),
    ("tab\tkept, newline\nnot", ["\t"], "tab\tkept, newline\\u{A}not"),
    ("", [], ""),
  ]

  @Test(arguments: cases)
  func controlCharactersAreEscaped(_ text: String, _ kept: Set<Unicode.Scalar>, _ expected: String) {
    #expect(text.escapingControlCharacters(keeping: kept) == expected)
  }
}
