import Glibc

// Waiting for something to happen, in place of sleeping and hoping it did:
// each wait polls a condition that tells the thing happened (a process exited,
// a marker file appeared, a socket answers) and fails at its deadline with an
// error naming what it waited for. The deadlines are generous, for a loaded
// machine: a wait that succeeds ends as soon as the condition holds, so only
// a failure takes that long.

/// A wait that reached its deadline, with what it waited for.
package struct WaitTimeout: Error, CustomStringConvertible {
  /// What was waited for, as in "timed out waiting for <what>".
  package var what: String
  package var timeout: Duration
  /// What the test can say about the state at the deadline (a log, a screen).
  package var detail: String

  package var description: String {
    "timed out after \(timeout) waiting for \(what)" + (detail.isEmpty ? "" : ":\n\(detail)")
  }
}

// The blocking forms below are disfavoured: in async code the async forms
// are chosen, which hold no thread of the pool while they wait (a test that
// blocks one keeps the tasks it waits for from running).

/// Polls `value` every `interval` until it returns a value, and returns it;
/// throws `WaitTimeout` naming `what` (with `detail()`) after `timeout`.
@_disfavoredOverload
@discardableResult
package func eventually<Value>(
  _ what: String, timeout: Duration = .seconds(60), interval: Duration = .milliseconds(20),
  detail: () -> String = { "" }, _ value: () throws -> Value?
) throws -> Value {
  let deadline = ContinuousClock.now + timeout
  while true {
    if let value = try value() { return value }
    guard ContinuousClock.now < deadline else { throw WaitTimeout(what: what, timeout: timeout, detail: detail()) }
    var pause = timespec(tv_sec: Int(interval.components.seconds), tv_nsec: Int(interval.components.attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&pause, &remaining) == -1 && errno == EINTR { pause = remaining }
  }
}

/// Polls `condition` until it holds; throws `WaitTimeout` after `timeout`.
@_disfavoredOverload
package func eventually(
  _ what: String, timeout: Duration = .seconds(60), interval: Duration = .milliseconds(20),
  detail: () -> String = { "" }, _ condition: () throws -> Bool
) throws {
  try eventually(what, timeout: timeout, interval: interval, detail: detail) { try condition() ? () : nil }
}

/// `eventually` for async tests: sleeps with `Task.sleep` between polls, so
/// it holds no thread the code under test may need.
@discardableResult
package func eventually<Value>(
  _ what: String, timeout: Duration = .seconds(60), interval: Duration = .milliseconds(20),
  detail: () -> String = { "" }, _ value: () async throws -> Value?
) async throws -> Value {
  let deadline = ContinuousClock.now + timeout
  while true {
    if let value = try await value() { return value }
    guard ContinuousClock.now < deadline else { throw WaitTimeout(what: what, timeout: timeout, detail: detail()) }
    try await Task.sleep(for: interval)
  }
}

package func eventually(
  _ what: String, timeout: Duration = .seconds(60), interval: Duration = .milliseconds(20),
  detail: () -> String = { "" }, _ condition: () async throws -> Bool
) async throws {
  try await eventually(what, timeout: timeout, interval: interval, detail: detail) { try await condition() ? () : nil }
}
