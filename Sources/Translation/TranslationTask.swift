/// A session for a configuration, handed to an action: the counterpart of
/// SwiftUI's `translationTask(_:action:)` for apps without SwiftUI (terminal
/// and desktop apps). Made by `translationTask(_:action:)`.
///
/// As with Apple's modifier, the action runs with a new session when the task
/// is made with a non-nil configuration, and again, with another new session,
/// whenever `configuration` changes (other languages or strategy, or
/// `invalidate()`); the session of the previous run is cancelled then (its
/// requests throw `alreadyCancelled`, where Apple's stops the app), and so
/// is the task that ran the action. A nil configuration runs nothing.
///
/// The action runs on the main actor, as a view's does. Dropping the task
/// does not stop it; `cancel()` does. `value` waits for the current run.
@MainActor
public final class TranslationTask {
  /// The configuration the action runs with; setting another (or an
  /// invalidated one) runs the action again.
  public var configuration: TranslationSession.Configuration? {
    didSet { if configuration != oldValue { restart() } }
  }
  private let action: @MainActor (TranslationSession) async -> Void
  private let makeSession: (TranslationSession.Configuration) -> TranslationSession
  private var running: Task<Void, Never>?
  private var session: TranslationSession?

  /// Runs `action` with a session for `configuration` now (when it is not
  /// nil) and whenever it changes.
  public convenience init(
    _ configuration: TranslationSession.Configuration?, action: @escaping @MainActor (TranslationSession) async -> Void
  ) {
    self.init(configuration, makeSession: { TranslationSession(configuration: $0) }, action: action)
  }

  /// A task whose sessions use the provider `provider` names, through the
  /// service that `serviceEnvironment` finds (nil: always directly).
  package convenience init(
    _ configuration: TranslationSession.Configuration?, provider: String, serviceEnvironment: [String: String]? = nil,
    action: @escaping @MainActor (TranslationSession) async -> Void
  ) {
    self.init(
      configuration,
      makeSession: {
        TranslationSession(
          configuration: $0, backend: SessionBackend(provider: provider, serviceEnvironment: serviceEnvironment))
      }, action: action)
  }

  private init(
    _ configuration: TranslationSession.Configuration?,
    makeSession: @escaping (TranslationSession.Configuration) -> TranslationSession,
    action: @escaping @MainActor (TranslationSession) async -> Void
  ) {
    self.configuration = configuration
    self.makeSession = makeSession
    self.action = action
    restart()
  }

  /// Waits for the action's current run to finish (at once when none runs).
  public var value: Void {
    get async { await running?.value }
  }

  /// Stops the action's current run and cancels its session; a new
  /// configuration runs the action again.
  public func cancel() {
    running?.cancel()
    session?.cancel()
    (running, session) = (nil, nil)
  }

  private func restart() {
    cancel()
    guard let configuration else { return }
    let session = makeSession(configuration)
    self.session = session
    running = Task { [action] in await action(session) }
  }
}

/// Runs `action` with a session for `configuration` when it is not nil, and
/// again with a new session whenever the returned task's configuration
/// changes: the counterpart of SwiftUI's `translationTask(_:action:)`.
@MainActor
@discardableResult
public func translationTask(
  _ configuration: TranslationSession.Configuration?, action: @escaping @MainActor (TranslationSession) async -> Void
) -> TranslationTask {
  TranslationTask(configuration, action: action)
}

/// Runs `action` with a session from `source` (nil: detected) into `target`
/// (nil: the user's preferred language): the counterpart of SwiftUI's
/// `translationTask(source:target:action:)`. Set the task's
/// `configuration` to change the languages; the action runs again.
@MainActor
@discardableResult
public func translationTask(
  source: Locale.Language? = nil, target: Locale.Language? = nil,
  action: @escaping @MainActor (TranslationSession) async -> Void
) -> TranslationTask {
  TranslationTask(TranslationSession.Configuration(source: source, target: target), action: action)
}

/// `translationTask(source:target:action:)` with a preferred strategy (iOS 26.4).
@MainActor
@discardableResult
public func translationTask(
  source: Locale.Language? = nil, target: Locale.Language? = nil, preferredStrategy: TranslationSession.Strategy,
  action: @escaping @MainActor (TranslationSession) async -> Void
) -> TranslationTask {
  TranslationTask(
    TranslationSession.Configuration(source: source, target: target, preferredStrategy: preferredStrategy), action: action)
}
