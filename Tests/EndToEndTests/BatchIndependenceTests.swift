import Foundation
import TestSupport
import Testing

/// Each text of a batch is translated as if alone (issue 30), through every
/// batch path of the built tool: a `Translate` call on the D-Bus interface
/// and `translate --lines`. The batch is 2,000 distinct lines
/// (`DistinctCorpus`: lines without final punctuation, ending in an
/// abbreviation, quotes, dashes, empty lines), and each line alone is what
/// another service, on another bus, answered to one call per line, from the
/// last line to the first, so that no line had the same lines before it.
@Suite(.serialized, .tags(.endToEnd)) struct BatchIndependenceTests {
  static let corpus = DistinctCorpus.lines(2_000)
  static let script = CFixture.packageRoot + "/Tests/Fixtures/dbus_batch.py"

  /// Each line alone, one D-Bus call each, in a bus session (and service,
  /// runner and translation memory) of its own.
  static let alone = Result { try translateOverTheBus(.alone) }

  enum Way: String { case batch, alone }

  /// The corpus translated the `way` the fixture names, by a service that
  /// a fresh session bus activates.
  static func translateOverTheBus(_ way: Way) throws -> [String] {
    let session = try BusSession()
    let file = try session.folder.write("corpus.txt", corpus.joined(separator: "\n") + "\n")
    let outcome = try session.run("/usr/bin/python3 '\(script)' \(way.rawValue) '\(file)'")
    #expect(outcome.serviceStopped)
    guard outcome.result.exitCode == 0,
      let translations = try? JSONDecoder().decode([String].self, from: Data(outcome.result.stdout.utf8))
    else {
      throw BatchFailure(way: way.rawValue, detail: outcome.result.stderr)
    }
    return translations
  }

  struct BatchFailure: Error, CustomStringConvertible {
    var way: String
    var detail: String
    var description: String { "the corpus translated '\(way)' over D-Bus gave no translations: \(detail)" }
  }

  /// Records each line (up to 20) that `batch` translated otherwise than
  /// `alone`; the number of such lines.
  static func differences(_ batch: [String], _ alone: [String], path: String) -> Int {
    var differences = 0
    for (index, (inBatch, byItself)) in zip(batch, alone).enumerated() where inBatch != byItself {
      differences += 1
      if differences <= 20 {
        Issue.record(
          "\(path), line \(index + 1) \(corpus[index].debugDescription): \(inBatch.debugDescription) in the batch, \(byItself.debugDescription) alone"
        )
      }
    }
    return differences
  }

  @Test func aTranslateCallOnTheBusTranslatesEachTextAsIfAlone() throws {
    let alone = try Self.alone.get()
    let batch = try Self.translateOverTheBus(.batch)
    #expect(batch.count == Self.corpus.count)
    #expect(alone.count == Self.corpus.count)
    #expect(zip(Self.corpus, batch).allSatisfy { $0.isEmpty == $1.isEmpty }, "an empty line, and only it, translates empty")
    #expect(zip(Self.corpus, alone).allSatisfy { $0.isEmpty == $1.isEmpty }, "each line but an empty one translated alone")
    #expect(Self.differences(batch, alone, path: "D-Bus Translate") == 0)
  }

  /// `translate --lines` (a runner of its own, no service) gives, line by
  /// line, what each line alone gave over the bus.
  @Test func translateLinesTranslatesEachLineAsIfAlone() throws {
    let alone = try Self.alone.get()
    let result = try Host().run(
      ["translate", "--lines", "--provider", "Apertium", "--from", "en", "--to", "es"],
      stdin: Self.corpus.joined(separator: "\n") + "\n")
    try #require(result.exitCode == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    #expect(lines.count == Self.corpus.count)
    #expect(Self.differences(lines, alone, path: "translate --lines") == 0)
  }
}
