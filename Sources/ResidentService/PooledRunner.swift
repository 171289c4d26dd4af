import Service

/// A runner of the pool as the coalescer uses it (`BatchTranslating`).
final class PooledRunner: BatchTranslating, @unchecked Sendable {
  let client: RunnerClient
  let batchesInFlight: Int

  /// `depth`: the batches a runner that streams (`RunnerClient.streamsTranslations`) holds at once.
  init(_ client: RunnerClient, depth: Int) {
    self.client = client
    batchesInFlight = client.streamsTranslations ? max(depth, 1) : 1
  }

  func send(_ messages: [[String]], from source: String, to target: String) throws {
    for texts in messages { try client.sendTranslate(texts, from: source, to: target) }
  }

  func receive(count: Int, deadline: ContinuousClock.Instant) throws -> [String] {
    try client.receiveTranslations(count: count, deadline: deadline)
  }

  var interruption: @Sendable () -> Void { client.interruption }
}
