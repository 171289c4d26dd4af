import Synchronization

/// A request's way to be abandoned from another thread (its caller left):
/// fired before or after its action is known, the action runs once.
///
/// The action runs under the lock, so that `clear()` returning means it will
/// not run any more: a runner given back to the pool is never stopped for a
/// caller it no longer works for. An action must not use its own cancellation.
final class Cancellation: Sendable {
  private let state = Mutex<(fired: Bool, action: (@Sendable () -> Void)?)>((false, nil))

  init() {}

  /// Whether it was fired.
  var isFired: Bool { state.withLock { $0.fired } }

  /// Fires the action now, or as soon as it is given.
  @Sendable func fire() {
    state.withLock { state in
      guard !state.fired else { return }
      state.fired = true
      state.action?()
    }
  }

  /// What firing does; run at once if fired already.
  func onFire(_ action: @escaping @Sendable () -> Void) {
    state.withLock { state in
      state.action = action
      if state.fired { action() }
    }
  }

  /// Forgets the action: after this returns, firing does nothing more.
  func clear() {
    state.withLock { $0.action = nil }
  }
}
