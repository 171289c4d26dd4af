/// Runs the SDK's main-actor code (views, as SwiftUI's are `@MainActor`) for
/// a call from the host.
///
/// The host calls on the process's main thread (a runner's, or
/// `translation-host --in-process`'s), which also runs the main queue between
/// calls (ABI 2), so the main actor is really there; this only says so to the
/// compiler, as `MainActor.assumeIsolated` would, which takes only `Sendable`
/// results. A host that called from another thread would break the ABI, and
/// code compiled in Swift 6 mode would stop at its run-time checks.
enum MainThread {
  static func run<Result>(_ body: @MainActor () throws -> Result) rethrows -> Result {
    try withoutActuallyEscaping(body) { body in
      try unsafeBitCast(body, to: (() throws -> Result).self)()
    }
  }

  /// `body` as a plain closure, to hand to an API that is not main-actor
  /// aware without the run-time check such a hand-over would get; called
  /// only where `run` would be.
  static func unchecked<Result>(_ body: @escaping @MainActor () -> Result) -> () -> Result {
    unsafeBitCast(body, to: (() -> Result).self)
  }
}
