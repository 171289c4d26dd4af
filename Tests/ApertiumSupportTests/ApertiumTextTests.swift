import Foundation
import TestSupport
import Testing

@testable import ApertiumSupport

/// `ApertiumText` against Debian's `apertium-destxt` and `apertium-retxt`.
@Suite struct ApertiumTextTests {
  static let samples: [String] = [
    "", "a", "a ", "a  ", "a b", "a  b", " a", "  a", "a\n", "a\nb", "a\n\nb", "a \n\n b", "a.\n\nb", "a!\n\nb",
    "a\n\n", "x\ty", "x\ry", "x\r\n\r\ny", "a\n\n\n", "a.", "a. ", "a.\n", "\n", "\n\n", "é\u{a0}b", "1.5 %", "a...",
    "<b>bold</b>", "a\\b", "a\u{0}b", "[x] ^y$ @z /w {v}", "Dr. Smith's \"quote\" — em dash…", "日本語のテキスト",
    "Tabs\tand\tmore  spaces   here.\n\nNew paragraph!\n", String(repeating: "long line with words ", count: 200),
  ]

  private func tool(_ name: String, _ input: String) throws -> String {
    try Command.run("/usr/bin/\(name)", [], stdin: input).stdout
  }

  @Test(arguments: samples) func deformatsAsApertiumDestxt(_ text: String) throws {
    #expect(ApertiumText.deformat(text) == (try tool("apertium-destxt", text)))
  }

  @Test(arguments: samples) func reformatsAsApertiumRetxt(_ text: String) throws {
    let stream = try tool("apertium-destxt", text)
    #expect(ApertiumText.reformat(stream) == (try tool("apertium-retxt", stream)))
  }

  @Test(arguments: samples) func deformattedTextEndsInABlank(_ text: String) {
    let last = ApertiumText.deformat(text).unicodeScalars.last
    #expect(last == "]" || last == " ")
  }

  /// Texts that look like the stream's own markup, the text break among them.
  static let markup: [String] = ["[|]", "a [|] b", "\\[|\\]", "[|", "|]", "[[|]]", ".[]", "a.[][|]b", "\\", "[", "]"]

  @Test(arguments: samples + markup) func noTextMakesATextBreak(_ text: String) {
    let stream = ApertiumText.deformat(text)
    #expect(ApertiumText.reformatTexts(Array(stream.utf8)[...]) == [ApertiumText.reformat(stream)])
  }

  /// Texts joined by text breaks, as a flush of several carries them, come
  /// apart as each would alone.
  @Test(arguments: [
    ["a", "b"], ["", ""], ["a\n\nb", "c"], ["[|]", "x", "[|]"], samples, markup, ["", "a", "", " ", "\n"],
  ])
  func reformatsTextsJoinedByTextBreaks(_ texts: [String]) {
    let stream = texts.map { Array(ApertiumText.deformat($0).utf8) }.joined(separator: ApertiumText.textBreak)
    #expect(ApertiumText.reformatTexts(Array(stream)[...]) == texts.map { ApertiumText.reformat(ApertiumText.deformat($0)) })
  }
}
