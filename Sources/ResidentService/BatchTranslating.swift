/// A runner as `TranslationCoalescer` uses it: it translates batches, and a
/// runner whose provider takes texts while others are in flight
/// (`Capability.translateStream`) holds more than one batch at once. The
/// seam between the coalescer's decisions (batching, fairness, deadlines,
/// order) and the runner process: `PooledRunner` is the real one, the
/// coalescer's tests use fakes in this process.
///
/// Calls come from the coalescer's leading threads: `send` under the
/// coalescer's lock, `receive` by one thread at a time for one runner.
protocol BatchTranslating: AnyObject, Sendable {
  /// How many batches it may hold at once (1: one at a time).
  var batchesInFlight: Int { get }
  /// Sends a batch as `messages` (texts), each answered on its own: their
  /// translations come from `receive`, message by message, in the order they
  /// were sent.
  func send(_ messages: [[String]], from source: String, to target: String) throws
  /// The `count` translations of the oldest message sent and not received, by `deadline`.
  func receive(count: Int, deadline: ContinuousClock.Instant) throws -> [String]
  /// Stops the runner at once, from any thread: the batches in it fail.
  var interruption: @Sendable () -> Void { get }
}
