import Glibc
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

  /// How an open batch's source gives its texts.
  struct Feeding: CustomTestStringConvertible, Sendable {
    var name: String
    /// Texts given before the source says `.later` once.
    var run: Int
    /// Calls of the engine: texts given in each, the source then saying `.later` for good.
    var call: Int
    var testDescription: String { name }
  }

  /// The corpus (and its first 100 lines again) fed as an open batch, texts
  /// coming while others are in flight and over several calls, against one
  /// batch of another engine: each index gets exactly its own text's
  /// translation, once, with 0 differences.
  @Test(arguments: [
    Feeding(name: "one text at a time, the source saying later in between", run: 1, call: 2_100),
    Feeding(name: "runs of 3, calls of 50 (a client's requests)", run: 3, call: 50),
    Feeding(name: "all of it in one call (a whole file)", run: 2_100, call: 2_100),
  ]) func anOpenBatchTranslatesEachTextAsIfAlone(_ feeding: Feeding) throws {
    let preload = ApertiumEngineTests.stagePreload
    let texts = Self.corpus + Self.corpus.prefix(100)
    let batch = try ApertiumEngine(stagePreload: preload).translate(texts, from: "en", to: "es")
    let engine = ApertiumEngine(stagePreload: preload)
    // Always readable: the engine asks the source again at every turn, as when texts keep coming.
    let (wake, other) = try #require(Self.socketPair())
    defer {
      close(wake)
      close(other)
    }
    _ = write(other, "x", 1)
    final class Source: @unchecked Sendable {
      var next = 0
      var sinceLater = 0
      var answers: [String?]
      var duplicates = 0
      init(count: Int) { answers = Array(repeating: nil, count: count) }
    }
    let source = Source(count: texts.count)
    while source.next < texts.count {
      let end = min(source.next + feeding.call, texts.count)
      try engine.translate(
        from: "en", to: "es", wake: wake,
        next: {
          guard source.next < end else { return .later }
          if source.sinceLater == feeding.run {
            source.sinceLater = 0
            return .later
          }
          source.sinceLater += 1
          defer { source.next += 1 }
          return .text(index: source.next, texts[source.next])
        },
        deliver: { index, translation in
          if source.answers[index] != nil { source.duplicates += 1 }
          source.answers[index] = translation
        })
      #expect(source.answers[..<source.next].allSatisfy { $0 != nil }, "the call returned before every text taken was answered")
    }
    #expect(source.duplicates == 0)
    let differences = zip(batch, source.answers).filter { $0 != $1 }.count
    #expect(differences == 0)
  }

  private static func socketPair() -> (Int32, Int32)? {
    var descriptors: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &descriptors) == 0 else { return nil }
    return (descriptors[0], descriptors[1])
  }
}
