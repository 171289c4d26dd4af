import Synchronization

/// A request's way to be abandoned from another thread (its client left):
/// fired before or after its action is known, the action runs once.
final class Cancellation: Sendable {
  private let state = Mutex<(fired: Bool, action: (@Sendable () -> Void)?)>((false, nil))

  init() {}

  /// Fires the action now, or as soon as it is given.
  @Sendable func fire() {
    let action = state.withLock { state -> (@Sendable () -> Void)? in
      guard !state.fired else { return nil }
      state.fired = true
      return state.action
    }
    action?()
  }

  /// What firing does; run at once if fired already.
  func onFire(_ action: @escaping @Sendable () -> Void) {
    let firedAlready = state.withLock { state -> Bool in
      state.action = action
      return state.fired
    }
    if firedAlready { action() }
  }
}
