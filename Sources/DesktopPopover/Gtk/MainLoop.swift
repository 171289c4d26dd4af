import CGtk
import System

/// Waiting on GLib's default main context without spinning: a wait blocks
/// in `g_main_context_iteration` until a source fires (an X event, which is
/// how GDK hears of a clipboard's new owner through XFixes and of a
/// selection request; a descriptor; a signal) or a one-shot timeout at the
/// wait's deadline, then checks its condition again. So a process that
/// waits wakes only when something happened, never at a polling rate
/// (`Benchmarks/popover_idle.py` counts its wakeups).
enum MainLoop {
  /// Runs one iteration of the main context, sleeping until a source fires
  /// or `deadline` comes (at once when it has passed).
  /// - Returns: whether a source other than the deadline's timeout was
  ///   dispatched (false: the deadline came, or nothing was ready).
  @discardableResult
  static func iterate(until deadline: ContinuousClock.Instant) -> Bool {
    guard !deadline.hasPassed else { return g_main_context_iteration(nil, 0) != 0 }
    final class Flag { var value = false }
    let fired = Flag()
    let timer = GObjectBridge.after(deadline.remaining) { fired.value = true }
    let dispatched = g_main_context_iteration(nil, 1) != 0
    if !fired.value { g_source_remove(timer) }
    return dispatched && !fired.value
  }

  /// Runs the main context while `condition` holds, until `deadline`.
  /// - Returns: whether `condition` ended the wait (false: the deadline came first).
  @discardableResult
  static func run(until deadline: ContinuousClock.Instant, while condition: () -> Bool) -> Bool {
    while condition() {
      guard !deadline.hasPassed else { return false }
      iterate(until: deadline)
    }
    return true
  }

  /// Runs the main context until no source has fired for `quiet` (what is
  /// under way, a request's last events, has been served), or until `limit`.
  static func runUntilQuiet(for quiet: Duration, until limit: ContinuousClock.Instant) {
    var quietUntil = ContinuousClock.Instant.after(quiet)
    while !quietUntil.hasPassed && !limit.hasPassed {
      if iterate(until: min(quietUntil, limit)) { quietUntil = .after(quiet) }
    }
  }

  /// Dispatches what is ready now, without waiting for more.
  static func dispatchPending() {
    while g_main_context_iteration(nil, 0) != 0 {}
  }
}
