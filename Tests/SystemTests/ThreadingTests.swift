import Dispatch
import Foundation
import Synchronization
import System
import Testing

/// System's `DetachedThread` and `Condition`, which the service and the CLI
/// use instead of Foundation's `Thread` and `NSCondition`.
@Suite struct ThreadingTests {
  @Test func aDetachedThreadRunsItsBodyUnderItsName() throws {
    let seen = Mutex<String?>(nil)
    let done = DispatchSemaphore(value: 0)
    DetachedThread.start(name: "a long thread name, cut") {
      let comm = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
      seen.withLock { $0 = comm }
      done.signal()
    }
    #expect(done.wait(timeout: .now() + 20) == .success)
    #expect(seen.withLock { $0 } == "a long thread n\n", "Linux keeps 15 bytes of a name")
  }

  @Test func aWaitEndsAtItsDeadlineWithoutASignal() {
    let condition = Condition()
    let start = ContinuousClock.now
    let signalled = condition.withLock { condition.wait(until: .after(.milliseconds(50))) }
    #expect(!signalled)
    #expect(ContinuousClock.now - start >= .milliseconds(50))
    #expect(condition.withLock { condition.wait(until: start) } == false, "a deadline that has passed")
  }

  @Test func aSignalWakesAWaiterBeforeItsDeadline() {
    let condition = Condition()
    // The lock is held from before the signaller starts until the wait lets
    // go of it: its signal can only come while this thread waits.
    condition.lock()
    DetachedThread.start(name: "signaller") { condition.withLock { condition.signal() } }
    let start = ContinuousClock.now
    let signalled = condition.wait(until: .after(.seconds(20)))
    condition.unlock()
    #expect(signalled)
    #expect(ContinuousClock.now - start < .seconds(20))
  }
}
