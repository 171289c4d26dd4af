/// The pool's runners for one resolved provider, as the coalescer takes them.
struct PoolRunners: TranslatingRunners {
  let pool: RunnerPool
  let resolution: ResolutionCache.Resolution
  /// Batches in flight per runner whose provider streams.
  let depth: Int

  var key: RunnerPool.Key { resolution.key }
  var provider: String { resolution.bundle.identifier }

  func checkout(timeout: Duration) throws -> any BatchTranslating {
    PooledRunner(try pool.checkout(resolution, timeout: timeout), depth: depth)
  }

  func checkin(_ runner: any BatchTranslating, reusable: Bool) {
    guard let runner = runner as? PooledRunner else { preconditionFailure("a runner the pool did not give") }
    pool.checkin(runner.client, key: key, reusable: reusable)
  }
}
