/// Monotonic instants (`Syscalls.monotonicNanoseconds()`) a number of
/// seconds away, saturating instead of trapping.
///
/// Seconds come from users and clients (`--idle-timeout 1e300`, a deadline
/// longer than the machine has been up); `UInt64(seconds * 1e9)` traps for
/// huge or non-finite values and `now - span` underflows early after boot.
/// Here a span is clamped to `0...UInt64.max` and the sum or difference to
/// the range of the clock, so the worst case is a deadline that never comes
/// or one that has already passed.
package enum Deadline {
  /// The instant `seconds` after `now` (never past `UInt64.max`; NaN and negative spans count as zero).
  package static func after(_ seconds: Double, from now: UInt64 = Syscalls.monotonicNanoseconds()) -> UInt64 {
    let (sum, overflow) = now.addingReportingOverflow(nanoseconds(seconds))
    return overflow ? .max : sum
  }

  /// The instant `seconds` before `now` (never before 0, the clock's start).
  package static func before(_ seconds: Double, from now: UInt64 = Syscalls.monotonicNanoseconds()) -> UInt64 {
    let (difference, overflow) = now.subtractingReportingOverflow(nanoseconds(seconds))
    return overflow ? 0 : difference
  }

  /// `seconds` in nanoseconds, clamped to what a `UInt64` holds.
  package static func nanoseconds(_ seconds: Double) -> UInt64 {
    guard seconds > 0 else { return 0 }  // false for NaN too
    let nanoseconds = seconds * 1e9
    // 2^64 is exactly representable; anything at or above it (or infinite) saturates.
    return nanoseconds < 18_446_744_073_709_551_616.0 ? UInt64(nanoseconds) : .max
  }
}
