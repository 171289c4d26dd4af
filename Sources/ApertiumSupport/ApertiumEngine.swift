import Dispatch
import Synchronization
import System

/// The installed Apertium pairs, with warm pipelines per pair in use,
/// restarted when they die. Safe to use from several threads: translations
/// are serialized, as a pipeline answers one stream at a time. A large batch
/// is split across two pipelines of the pair, one per core: the 13 stages of
/// one pipeline do not keep two cores busy.
public final class ApertiumEngine: @unchecked Sendable {
  public let pairs: [ApertiumPair]
  /// Whether translations keep Apertium's marks on unknown words (`ApertiumPipeline`).
  public let marksUnknownWords: Bool
  private let lock = Mutex(())
  private var pipelines: [String: [ApertiumPipeline]] = [:]
  /// Batches at least this large are split across two pipelines.
  static let splitThreshold = 64

  public init(pairs: [ApertiumPair] = ApertiumPair.installed(), marksUnknownWords: Bool = true) {
    self.pairs = pairs
    self.marksUnknownWords = marksUnknownWords
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
    return try lock.withLock { _ throws(ApertiumError) in
      do {
        return try translateWithPipelines(texts, pair: pair)
      } catch {
        pipelines[pair.mode] = nil
        return try translateWithPipelines(texts, pair: pair)
      }
    }
  }

  private func translateWithPipelines(_ texts: [String], pair: ApertiumPair) throws(ApertiumError) -> [String] {
    guard texts.count >= Self.splitThreshold else { return try pipelines(for: pair, count: 1)[0].translate(texts) }
    let workers = try pipelines(for: pair, count: 2)
    let half = texts.count / 2
    let parts = [Array(texts[..<half]), Array(texts[half...])]
    let results = Results(count: 2)
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      results.set(index, Result { () throws(ApertiumError) in try workers[index].translate(parts[index]) })
    }
    var answers: [String] = []
    for result in results.all { answers += try result.get() }
    return answers
  }

  /// `count` running pipelines for `pair`, starting or restarting what is needed.
  private func pipelines(for pair: ApertiumPair, count: Int) throws(ApertiumError) -> [ApertiumPipeline] {
    var running = (pipelines[pair.mode] ?? []).filter(\.isRunning)
    while running.count < count {
      running.append(try ApertiumPipeline(pair: pair, marksUnknownWords: marksUnknownWords))
    }
    pipelines[pair.mode] = running
    return Array(running.prefix(count))
  }
}

/// The results of parallel work, written once per index.
private final class Results: @unchecked Sendable {
  private let lock = Mutex(())
  private var values: [Result<[String], ApertiumError>?]

  init(count: Int) { values = Array(repeating: nil, count: count) }

  func set(_ index: Int, _ value: Result<[String], ApertiumError>) { lock.withLock { _ in values[index] = value } }

  var all: [Result<[String], ApertiumError>] {
    lock.withLock { _ in values.map { $0 ?? .failure(.pipelineFailed(mode: "?", reason: "no result")) } }
  }
}
