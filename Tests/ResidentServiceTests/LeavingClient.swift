import Dispatch
import Synchronization
import System

@testable import ResidentService

/// A client that sends `texts` and leaves once they are in a runner (its
/// request's `Cancellation` fired, as a closed socket fires it).
enum LeavingClient {
  /// The description of the error its request ended with; nil when it was answered.
  static func send(_ texts: [String], to coalescer: TranslationCoalescer, runners: FakeRunners) -> String? {
    let cancellation = Cancellation()
    let left = DispatchSemaphore(value: 0)
    let outcome = Mutex<String?>(nil)
    DetachedThread.start(name: "leaving client") {
      do {
        _ = try coalescer.translate(
          texts, from: "en", to: "es", runners: runners, timeout: .seconds(30), cancellation: cancellation)
      } catch {
        outcome.withLock { $0 = "\(error)" }
      }
      left.signal()
    }
    runners.waitForASend()
    cancellation.fire()
    left.wait()
    return outcome.withLock { $0 }
  }
}
