import Testing

@testable import ApertiumSupport

@Suite struct DistinctTextsTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let batch: [String]
    let distinct: [String]
    var testDescription: String { batch.description }
  }

  static let cases: [Case] = [
    Case(batch: [], distinct: []),
    Case(batch: ["a"], distinct: ["a"]),
    Case(batch: ["a", "b", "c"], distinct: ["a", "b", "c"]),
    Case(batch: ["a", "a", "a"], distinct: ["a"]),
    Case(batch: ["b", "a", "b", "c", "a"], distinct: ["b", "a", "c"]),
    Case(batch: ["", "", "x", ""], distinct: ["", "x"]),
    // Equal as Swift compares strings (canonically equivalent), but not byte for byte: kept apart.
    Case(batch: ["caf\u{e9}", "cafe\u{301}", "caf\u{e9}"], distinct: ["caf\u{e9}", "cafe\u{301}"]),
    Case(batch: ["A", "a"], distinct: ["A", "a"]),
  ]

  @Test(arguments: cases) func translatesEachTextOnceAndPutsItBackEverywhere(_ test: Case) {
    let distinct = DistinctTexts(test.batch)
    #expect(distinct.texts.map { Array($0.utf8) } == test.distinct.map { Array($0.utf8) })
    // Each distinct text "translated" to itself in brackets: every text of the batch gets its own.
    let expanded = distinct.expand(distinct.texts.map { "<\($0)>" })
    #expect(expanded.map { Array($0.utf8) } == test.batch.map { Array("<\($0)>".utf8) })
  }
}
