import Foundation
import TestSupport
import Testing

@testable import ApertiumSupport

/// `ApertiumPipeline` on a mode whose one stage is a script of the test's
/// (`CopyingMode`): how texts share null flushes, and what happens when a
/// stage loses a text break.
@Suite struct ApertiumPipelineTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let texts: [String]
    let textsPerFlush: Int
    let damaged: [Int]
    /// How many texts each flush the stage saw held, retries included.
    let flushes: [Int]
    var testDescription: String { "\(texts.count) texts, \(textsPerFlush) to a flush, damaged \(damaged)" }
  }

  static let words = (0..<10).map { "word \($0)" }

  static let cases: [Case] = [
    Case(texts: words, textsPerFlush: 1, damaged: [], flushes: Array(repeating: 1, count: 10)),
    Case(texts: words, textsPerFlush: 4, damaged: [], flushes: [4, 4, 2]),
    Case(texts: words, textsPerFlush: 16, damaged: [], flushes: [10]),
    Case(texts: ["[|]", "a [|] b", "\\[|\\]"], textsPerFlush: 3, damaged: [], flushes: [3]),
    // The second flush comes back without its breaks: its 4 texts again, one to a flush, after the third.
    Case(texts: words, textsPerFlush: 4, damaged: [1], flushes: [4, 4, 2, 1, 1, 1, 1]),
    Case(texts: words, textsPerFlush: 16, damaged: [0], flushes: [10] + Array(repeating: 1, count: 10)),
    // A flush of one text has no break to lose.
    Case(texts: ["one"], textsPerFlush: 16, damaged: [0], flushes: [1]),
  ]

  @Test(arguments: cases) func textsShareFlushesAndComeBackEachInItsPlace(_ test: Case) throws {
    let mode = try CopyingMode(damaging: test.damaged)
    let pipeline = try ApertiumPipeline(pair: mode.pair)
    defer { pipeline.stop() }
    #expect(try pipeline.translate(test.texts, textsPerFlush: test.textsPerFlush) == test.texts)
    let seen = try mode.records().map { $0.components(separatedBy: "[|]").count }
    #expect(seen == test.flushes)
  }

  /// A deep window of texts long and short, streamed as the engine streams
  /// them (each its own flush, refilled at half the window; no more taken
  /// while 256 KiB wait to be written): each comes back once, in its place.
  @Test(arguments: [(count: 2_000, length: 20), (count: 600, length: 1_000)])
  func aDeepWindowGivesEachTextBackInItsPlace(count: Int, length: Int) throws {
    let mode = try CopyingMode(damaging: [])
    let pipeline = try ApertiumPipeline(pair: mode.pair)
    defer { pipeline.stop() }
    let texts = (0..<count).map { index in
      "text \(index) " + String(repeating: "abcdefghi ", count: length / 10)
    }
    var next = 0
    var answers = [Int: String]()
    var repeated = 0
    try pipeline.stream(window: 512) {
      guard next < texts.count else { return nil }
      defer { next += 1 }
      return (next, texts[next])
    } deliver: { index, answer in
      if answers.updateValue(answer, forKey: index) != nil { repeated += 1 }
    }
    #expect(repeated == 0)
    #expect(answers.count == texts.count)
    #expect(texts.indices.allSatisfy { answers[$0] == texts[$0] })
  }
}
