import TestSupport
import Testing

@testable import ApertiumSupport

/// Each text of a batch is translated as if it were alone (issue 30): the
/// order and company of texts in a batch, and what a warm pipeline
/// translated before, change no translation.
@Suite(.serialized) struct ApertiumBatchTests {
  static let corpus = DistinctCorpus.lines(2_000)

  @Test func theCorpusHasWhatABatchMeetsInTheWild() {
    #expect(Self.corpus.count == 2_000)
    let texts = Self.corpus.filter { !$0.isEmpty }
    #expect(Set(texts).count == texts.count, "distinct lines")
    #expect(Self.corpus.filter(\.isEmpty).count >= 30, "empty lines")
    let unpunctuated = texts.filter { $0.last.map { $0.isLetter || $0.isNumber } ?? false }
    #expect(unpunctuated.count >= 100, "lines without final punctuation")
    let abbreviated = texts.filter { [" Mr", " etc", " e.g"].contains(where: $0.hasSuffix) }
    #expect(abbreviated.count >= 50, "lines ending in an abbreviation")
    #expect(texts.filter { $0.contains("\"") }.count >= 100, "quotes")
    #expect(texts.filter { $0.contains(" - ") || $0.contains("—") || $0.hasSuffix(" -") }.count >= 100, "dashes")
    #expect(DistinctCorpus.licenceSentences().count >= 500, "the licence texts of base-files")
  }

  /// The corpus as one batch against each line translated alone, by another
  /// engine, one request per line, in the reverse order (so that no line has
  /// the same lines before it in both): 0 differences.
  @Test(arguments: [true, false]) func aBatchTranslatesEachTextAsIfAlone(marksUnknownWords: Bool) throws {
    let preload = ApertiumEngineTests.stagePreload
    let batch = try ApertiumEngine(marksUnknownWords: marksUnknownWords, stagePreload: preload)
      .translate(Self.corpus, from: "en", to: "es")
    let single = ApertiumEngine(marksUnknownWords: marksUnknownWords, stagePreload: preload)
    var alone = [String](repeating: "", count: Self.corpus.count)
    for index in Self.corpus.indices.reversed() {
      alone[index] = try single.translate([Self.corpus[index]], from: "en", to: "es")[0]
    }
    #expect(batch.count == Self.corpus.count)
    var differences = 0
    for (index, (inBatch, byItself)) in zip(batch, alone).enumerated() where inBatch != byItself {
      differences += 1
      if differences <= 20 {
        Issue.record(
          "line \(index + 1) \(Self.corpus[index].debugDescription): \(inBatch.debugDescription) in the batch, \(byItself.debugDescription) alone"
        )
      }
    }
    #expect(differences == 0)
  }
}
