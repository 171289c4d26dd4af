/// Where `TranslationCoalescer` takes runners for one provider: the pool's
/// (`PoolRunners`), or fakes in its tests.
protocol TranslatingRunners {
  /// Which runners are interchangeable: requests for the same key and pair share batches.
  var key: RunnerPool.Key { get }
  /// The provider's identifier, for messages.
  var provider: String { get }
  /// A runner for the caller alone (its batches) until `checkin`, within `timeout`.
  /// - Throws: `ServiceError.busy` when none came free in time, or why none could start.
  func checkout(timeout: Duration) throws -> any BatchTranslating
  /// Gives a runner back; one that is not `reusable` (stopped, or holding a
  /// reply nobody read) is closed and replaced. `alone`: the caller's
  /// request was the only one of its group then (its client works alone).
  func checkin(_ runner: any BatchTranslating, reusable: Bool, alone: Bool)
}
