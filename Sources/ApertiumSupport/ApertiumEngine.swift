import Synchronization

/// The installed Apertium pairs, with one warm pipeline per pair in use,
/// restarted when it dies. Safe to use from several threads: translations
/// are serialized, as a pipeline answers one stream at a time.
public final class ApertiumEngine: @unchecked Sendable {
  public let pairs: [ApertiumPair]
  private let lock = Mutex(())
  private var pipelines: [String: ApertiumPipeline] = [:]

  public init(pairs: [ApertiumPair] = ApertiumPair.installed()) {
    self.pairs = pairs
  }

  /// The pair translating `source` to `target` (BCP-47), if installed.
  public func pair(from source: String, to target: String) -> ApertiumPair? {
    let (source, target) = (ApertiumLanguage.code(forTag: source), ApertiumLanguage.code(forTag: target))
    return pairs.first { $0.mode == "\(source)-\(target)" }
  }

  /// Translates `texts` from `source` to `target`. A pipeline that died since
  /// its last use, or dies during this batch, is restarted and the batch
  /// tried once more.
  public func translate(_ texts: [String], from source: String, to target: String) throws(ApertiumError) -> [String] {
    guard let pair = pair(from: source, to: target) else { throw .noPair(source: source, target: target) }
    return try lock.withLock { _ throws(ApertiumError) in
      do {
        return try pipeline(for: pair).translate(texts)
      } catch {
        pipelines[pair.mode] = nil
        return try pipeline(for: pair).translate(texts)
      }
    }
  }

  private func pipeline(for pair: ApertiumPair) throws(ApertiumError) -> ApertiumPipeline {
    if let running = pipelines[pair.mode], running.isRunning { return running }
    let started = try ApertiumPipeline(pair: pair)
    pipelines[pair.mode] = started
    return started
  }
}
