/// The pool's runners for one resolved provider, as the coalescer takes them.
struct PoolRunners: TranslatingRunners {
  let pool: RunnerPool
  let resolution: ResolutionCache.Resolution
  /// Batches in flight per runner whose provider streams.
  let depth: Int
  /// The runner the caller's thread gave back last, to check out without a
  /// `poll` when the caller found its socket quiet; nil: none kept.
  var recent: RecentRunner? = nil

  var key: RunnerPool.Key { resolution.key }
  var provider: String { resolution.bundle.identifier }

  func checkout(timeout: Duration) throws -> any BatchTranslating {
    PooledRunner(try pool.checkout(resolution, timeout: timeout, quiet: recent?.takeQuiet()), depth: depth)
  }

  func checkin(_ runner: any BatchTranslating, reusable: Bool, alone: Bool) {
    guard let runner = runner as? PooledRunner else { preconditionFailure("a runner the pool did not give") }
    let checkouts = pool.checkin(runner.client, key: key, reusable: reusable)
    recent?.gaveBack(runner.client, checkouts: checkouts, keep: reusable && alone)
  }
}
