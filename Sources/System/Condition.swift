import Glibc

/// A lock with a condition variable (pthread's), for code that must not
/// load Foundation for its `NSCondition`: the service and the CLI start
/// without Foundation's ICU (about 5 ms of every command's start-up,
/// Benchmarks/README.md). Deadlines are `ContinuousClock` instants: the
/// condition variable waits on `CLOCK_MONOTONIC`, so a change of the wall
/// clock neither shortens nor stretches a wait.
///
/// As with `NSCondition`: `wait` must be called with the lock held, may
/// return without a signal (check the predicate in a loop), and holds the
/// lock again when it returns.
package final class Condition: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  package init() {
    pthread_mutex_init(mutex, nil)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(condition, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  package func lock() { pthread_mutex_lock(mutex) }
  package func unlock() { pthread_mutex_unlock(mutex) }

  /// `body` with the lock held.
  package func withLock<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
    lock()
    defer { unlock() }
    return try body()
  }

  /// Lets go of the lock until signalled, and takes it again.
  package func wait() { pthread_cond_wait(condition, mutex) }

  /// Lets go of the lock until signalled or `deadline`, and takes it again.
  /// Returns false once the deadline has passed.
  @discardableResult
  package func wait(until deadline: ContinuousClock.Instant) -> Bool {
    // At most a day at a time: the caller's loop waits again, and no sum overflows.
    let remaining = min(deadline.remaining, .seconds(86_400))
    guard remaining > .zero else { return false }
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let (seconds, attoseconds) = remaining.components
    var nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
    var wholeSeconds = Int(now.tv_sec) + Int(seconds)
    if nanoseconds >= 1_000_000_000 {
      nanoseconds -= 1_000_000_000
      wholeSeconds += 1
    }
    var until = timespec(tv_sec: wholeSeconds, tv_nsec: nanoseconds)
    return pthread_cond_timedwait(condition, mutex, &until) != ETIMEDOUT
  }

  /// Wakes one waiting thread.
  package func signal() { pthread_cond_signal(condition) }
  /// Wakes every waiting thread.
  package func broadcast() { pthread_cond_broadcast(condition) }
}
