/// Runs the SDK's main-actor code (views, as SwiftUI's are `@MainActor`) for
/// a call from the host.
///
/// In a runner the host calls on the process's main thread, which also runs
/// the main queue between calls (ABI 2), so the main actor is really there.
/// Under `translation-host --in-process`, a debugging aid, the calls come
/// from a thread of the CLI that is not the main thread and the main queue
/// does not run: the code runs on the calling thread, which is then the only
/// one that touches the views. (`MainActor.assumeIsolated` would do the
/// same on the main thread, but only for `Sendable` results.)
enum MainThread {
  static func run<Result>(_ body: @MainActor () throws -> Result) rethrows -> Result {
    try withoutActuallyEscaping(body) { body in
      try unsafeBitCast(body, to: (() throws -> Result).self)()
    }
  }
}
