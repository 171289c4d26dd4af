import Dispatch
import FoundationEssentials
import Synchronization
import System

/// The installed Apertium pairs, with warm pipelines per pair in use,
/// restarted when they die. Safe to use from several threads: translations
/// are serialized, as a pipeline answers one stream at a time.
///
/// A batch is translated as a file given to `apertium` would be, only
/// cheaper where it can be:
/// - a text is translated once, however often it occurs in a batch and in
///   the batches since (`DistinctTexts`, `TranslationMemory`): each text is
///   translated on its own, so its translation is the same wherever it occurs;
/// - each text is a null flush of its own (`ApertiumPipeline.stream`), and
///   the stages load the tagger's fix (`ApertiumStagePreload`): every text
///   is translated as if alone, whatever came before it (issue 30);
/// - a large batch is shared by one pipeline of the pair per core (up to
///   `maximumPipelines`), which draw texts from it as they go, each keeping
///   `window` flushes in flight: a pipeline slowed by other work on the
///   machine takes fewer, and all end together.
public final class ApertiumEngine: @unchecked Sendable {
  public let pairs: [ApertiumPair]
  /// Whether translations keep Apertium's marks on unknown words (`ApertiumPipeline`).
  public let marksUnknownWords: Bool
  /// What the pipelines' stages load (`ApertiumStagePreload`).
  public let stagePreload: ApertiumStagePreload
  private let lock = Mutex(())
  private var pipelines: [String: [ApertiumPipeline]] = [:]
  private var memory = TranslationMemory()
  /// Batches at least this large are shared by several pipelines: the
  /// resident service's batches of concurrent clients' sentences are small.
  static let splitThreshold = 8
  /// Texts per null flush: one. Texts sharing a flush meet: Apertium's
  /// tagger carries its state from word to word until a sentence ends, and a
  /// text ending in an abbreviation ("Mr", "etc") takes the sentence break
  /// into it; its transfer stages keep variables (the genitive rules' open
  /// quote) until the flush ends. About 1 text in 60 of a distinct corpus
  /// translated otherwise in flushes of 16 (`ApertiumBatchTests`). Only a
  /// null flush resets every stage. (16 to a flush took about a sixth less CPU.)
  static let textsPerFlush = 1
  /// Flushes in flight per pipeline when several share a batch (refilled
  /// when half have come back). Deep, so that each stage finds many texts
  /// waiting when it wakes and reads them in one go, as from a file: with 48,
  /// the stages woke for a text or two at a time and took 15–20% more CPU
  /// (10,000 distinct lines, one pipeline: 4.8 s against 4.0 s at 512; the
  /// whole command 0.82× `apertium -u`'s CPU against 0.74×). The pipelines
  /// still end close together: one pipeline keeps both cores of a two-core
  /// machine busy on its own, so the last one to finish loses no time.
  static let window = 512
  /// Pipelines per pair for a large batch: one per core, at least two, at most four.
  static let maximumPipelines = min(max(ProcessInfo.processInfo.activeProcessorCount, 2), 4)

  public init(
    pairs: [ApertiumPair] = ApertiumPair.installed(), marksUnknownWords: Bool = true,
    stagePreload: ApertiumStagePreload = .none
  ) {
    self.pairs = pairs
    self.marksUnknownWords = marksUnknownWords
    self.stagePreload = stagePreload
  }

  /// A translation as a provider hands it to apps: with the marks, exactly
  /// what the pipeline gave; without, also without the blanks Apertium keeps
  /// at either end (clean text, as Apple's framework gives).
  public func finished(_ translation: String) -> String {
    marksUnknownWords ? translation : translation.trimmingWhitespace()
  }

  /// The pair translating `source` to `target` (BCP-47), if installed.
  public func pair(from source: String, to target: String) -> ApertiumPair? {
    func normal(_ tag: String) -> String { String(tag.lowercased().map { $0 == "_" ? "-" : $0 }) }
    return pairs.first { normal($0.source) == normal(source) && normal($0.target) == normal(target) }
  }

  /// Translates `texts` from `source` to `target`. A pipeline that died since
  /// its last use, or dies during this batch, is restarted and the batch
  /// tried once more.
  public func translate(_ texts: [String], from source: String, to target: String) throws(ApertiumError) -> [String] {
    guard let pair = pair(from: source, to: target) else { throw .noPair(source: source, target: target) }
    let distinct = DistinctTexts(texts)
    let translations = try lock.withLock { _ throws(ApertiumError) in
      var translations = distinct.texts.map { memory.translation(of: $0, mode: pair.mode) }
      let missing = translations.indices.filter { translations[$0] == nil }
      let texts = missing.map { distinct.texts[$0] }
      let translated: [String]
      do {
        translated = try translateWithPipelines(texts, pair: pair)
      } catch {
        pipelines[pair.mode] = nil
        translated = try translateWithPipelines(texts, pair: pair)
      }
      for (place, translation) in zip(missing, translated) {
        translations[place] = translation
        memory.remember(translation, of: distinct.texts[place], mode: pair.mode)
      }
      return translations.map { $0! }
    }
    return distinct.expand(translations)
  }

  /// Translates an open batch: texts taken from `next` as they come, each
  /// translation handed to `deliver` (serialized) with its text's index as
  /// soon as it is ready, while later texts are in flight, so the pipeline
  /// never drains between one caller's texts and the next. Returns once
  /// `next` has nothing now (`.later`) or no more (`.end`) and every text
  /// taken is delivered; `wake` (a descriptor, polled only) is readable when
  /// `next` may have more. Each text is translated as in `translate(_:from:to:)`
  /// (its own null flush, once however often it comes). A large first
  /// portion (a whole file) is shared by several pipelines, as a batch is.
  /// A pipeline that dies is restarted once and the texts it held sent again.
  public func translate(
    from source: String, to target: String, wake: Int32? = nil, next: @escaping () -> StreamedText,
    deliver: @escaping (Int, String) -> Void
  ) throws(ApertiumError) {
    guard let pair = pair(from: source, to: target) else { throw .noPair(source: source, target: target) }
    try lock.withLock { _ throws(ApertiumError) in
      let mode = pair.mode
      let feed = StreamFeed(
        mode: mode, source: next, deliver: deliver, memory: { [self] in memory.translation(of: $0, mode: mode) },
        remember: { [self] in memory.remember($1, of: $0, mode: mode) })
      var count = feed.prefetch() >= Self.splitThreshold ? Self.maximumPipelines : 1
      var attempts = 0
      while true {
        attempts += 1
        let workers = try pipelines(for: pair, count: count)
        let failure = Mutex<ApertiumError?>(nil)
        let run: @Sendable (Int) -> Void = { index in
          do throws(ApertiumError) {
            try workers[index].stream(
              window: Self.window, textsPerFlush: Self.textsPerFlush, wake: { feed.isOpen ? wake : nil },
              next: { failure.withLock { $0 } == nil ? feed.next() : nil }, deliver: feed.answer)
          } catch {
            failure.withLock { $0 = $0 ?? error }
          }
        }
        if workers.count == 1 { run(0) } else { DispatchQueue.concurrentPerform(iterations: workers.count, execute: run) }
        guard let error = failure.withLock({ $0 }) else { return }
        pipelines[mode] = nil
        guard attempts < 2 else { throw error }
        count = feed.requeueUnanswered() >= Self.splitThreshold ? Self.maximumPipelines : 1
      }
    }
  }

  private func translateWithPipelines(_ texts: [String], pair: ApertiumPair) throws(ApertiumError) -> [String] {
    if texts.isEmpty { return [] }
    guard texts.count >= Self.splitThreshold else {
      return try pipelines(for: pair, count: 1)[0].translate(texts, textsPerFlush: Self.textsPerFlush)
    }
    let workers = try pipelines(for: pair, count: Self.maximumPipelines)
    let batch = SharedBatch(texts, mode: pair.mode)
    DispatchQueue.concurrentPerform(iterations: workers.count) { index in
      do throws(ApertiumError) {
        try workers[index].stream(
          window: Self.window, textsPerFlush: Self.textsPerFlush, next: batch.next, deliver: batch.answer)
      } catch {
        batch.fail(error)
      }
    }
    return try batch.answers()
  }

  /// The processes whose children are the stages of this engine's pipelines
  /// for `mode`, and of no other engine's (tests kill or inspect them).
  func pipelineProcessIDs(mode: String) -> [Int32] {
    lock.withLock { _ in (pipelines[mode] ?? []).map(\.processID).filter { $0 > 0 } }
  }

  /// `count` running pipelines for `pair`, starting or restarting what is needed.
  private func pipelines(for pair: ApertiumPair, count: Int) throws(ApertiumError) -> [ApertiumPipeline] {
    var running = (pipelines[pair.mode] ?? []).filter(\.isRunning)
    while running.count < count {
      running.append(try ApertiumPipeline(pair: pair, marksUnknownWords: marksUnknownWords, stagePreload: stagePreload))
    }
    pipelines[pair.mode] = running
    return Array(running.prefix(count))
  }
}

/// A batch shared by several pipelines: the next text for whichever asks,
/// and each answer in its place. After a failure no pipeline takes more.
private final class SharedBatch: @unchecked Sendable {
  private let texts: [String]
  private let mode: String
  private let lock = Mutex(())
  private var nextIndex = 0
  private var results: [String?]
  private var failure: ApertiumError?

  init(_ texts: [String], mode: String) {
    self.texts = texts
    self.mode = mode
    results = Array(repeating: nil, count: texts.count)
  }

  func next() -> (index: Int, text: String)? {
    lock.withLock { _ in
      guard failure == nil, nextIndex < texts.count else { return nil }
      defer { nextIndex += 1 }
      return (nextIndex, texts[nextIndex])
    }
  }

  func answer(_ index: Int, _ translation: String) { lock.withLock { _ in results[index] = translation } }

  func fail(_ error: ApertiumError) { lock.withLock { _ in failure = failure ?? error } }

  /// Every translation in order, or the first failure.
  func answers() throws(ApertiumError) -> [String] {
    try lock.withLock { _ throws(ApertiumError) in
      if let failure { throw failure }
      guard !results.contains(where: { $0 == nil }) else {
        throw .pipelineFailed(mode: mode, reason: "a pipeline ended without answering every text")
      }
      return results.map { $0! }
    }
  }
}
