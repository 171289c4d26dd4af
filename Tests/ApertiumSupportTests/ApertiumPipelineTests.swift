import Foundation
import TestSupport
import Testing

@testable import ApertiumSupport

/// `ApertiumPipeline` on modes whose one stage is a script of the test's: how
/// texts share null flushes, and what happens when a stage loses a text break.
@Suite struct ApertiumPipelineTests {
  /// A pipeline whose stage copies each null-flushed record, counts the
  /// records in `records`, and in the records listed in `damaged` (0-based)
  /// turns every text break into a plain blank, as a stage that moved it would.
  private func pipeline(damaging damaged: [Int], in folder: TemporaryDirectory) throws -> ApertiumPipeline {
    let stage = try folder.write(
      "stage",
      """
      #!/usr/bin/python3
      import sys
      damaged, count = {\(damaged.map(String.init).joined(separator: ", "))}, 0
      log = open(sys.argv[0] + ".records", "a")
      record = b""
      while byte := sys.stdin.buffer.read(1):
          if byte != b"\\0":
              record += byte
              continue
          log.write(record.decode() + "\\n")
          log.flush()
          if count in damaged:
              record = record.replace(b"[|]", b" ")
          sys.stdout.buffer.write(record + b"\\0")
          sys.stdout.buffer.flush()
          count, record = count + 1, b""
      """)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stage)
    let mode = try folder.write("test-copy.mode", "'\(stage)'\n")
    return try ApertiumPipeline(pair: ApertiumPair(mode: "test-copy", modeFile: mode, source: "en", target: "en"))
  }

  private func records(in folder: TemporaryDirectory) throws -> [String] {
    try String(contentsOfFile: folder.path + "/stage.records", encoding: .utf8).split(separator: "\n").map(String.init)
  }

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
    let folder = try TemporaryDirectory()
    let pipeline = try pipeline(damaging: test.damaged, in: folder)
    defer { pipeline.stop() }
    #expect(try pipeline.translate(test.texts, textsPerFlush: test.textsPerFlush) == test.texts)
    let seen = try records(in: folder).map { $0.components(separatedBy: "[|]").count }
    #expect(seen == test.flushes)
  }
}
