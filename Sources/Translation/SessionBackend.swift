import Foundation
import RunnerProtocol
import Service
import Synchronization
import System

/// The provider behind a session or availability check, as a
/// `TranslatorSession` that this backend opens on first use and keeps for its
/// life: through the resident service when it is running (a warm runner),
/// or in a sandboxed `translation-provider-runner` this process starts (the
/// direct path), chosen by `ProviderLaunch` exactly as the CLI chooses.
///
/// A `TranslatorSession` is not thread-safe and blocks on its socket, so it
/// belongs to this actor, and the actor runs on a thread of its own
/// (`ThreadExecutor`, which says why a dispatch queue would not do), never
/// on the cooperative pool. Only `interrupt()` crosses threads: it calls the
/// session's `interruption` (kept under a mutex), which kills a runner's
/// process group or shuts the service connection down, so the blocked
/// request fails at once. While a session is being opened there is nothing
/// to call yet: the interrupt is counted under the same mutex, and the
/// launch that sees a new one closes its fresh session and throws instead
/// of serving the request (a count rather than a flag, so that an
/// interrupt with no launch in progress cannot fail a later one). A session
/// that ended (a crash, a deadline) or was interrupted since it opened is
/// replaced on the next request: an interrupt that came between the checks
/// and the request killed a runner the session has not read from since. Nothing is sent twice here: a request whose service went away is
/// sent again by the session itself, as `ServiceTranslator` states.
actor SessionBackend: TranslationBackend {
  /// How long each request may take, as the CLI's default `--timeout` and D-Bus.
  static let defaultTimeout = RequestDeadline.standard

  private let executor = ThreadExecutor(name: "Translation.SessionBackend")
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  /// A bundle id, name or path, or nil for the user's default provider.
  private let provider: String?
  private let timeout: Duration
  /// The environment the service is looked up with, or nil for the direct path only.
  private let serviceEnvironment: [String: String]?
  private var session: (any TranslatorSession)?
  /// The interrupt count when `session` was opened: an interrupt since then
  /// killed it, whether or not it has noticed yet.
  private var sessionInterrupts = 0
  /// The open session's `interruption`, for `interrupt()`, and how many
  /// interrupts there were, for a launch in progress, which has none yet.
  private let interruption = Mutex<Interruption>(Interruption())

  private struct Interruption {
    var interrupt: (@Sendable () -> Void)?
    var count = 0
    /// Set by `cancel()`: no request is served any more.
    var isCancelled = false
  }

  /// A backend for `provider` that uses the service when the process's
  /// environment finds one running (`serviceEnvironment` overrides it; nil:
  /// always the direct path).
  init(
    provider: String?, serviceEnvironment: [String: String]? = ProcessInfo.processInfo.environment,
    timeout: Duration = defaultTimeout
  ) {
    self.provider = provider
    self.serviceEnvironment = serviceEnvironment
    self.timeout = timeout
  }

  // Isolated, so the session is closed on the backend's thread, never on the cooperative pool.
  isolated deinit { session?.close() }

  func prepare() throws {
    _ = try started()
  }

  func translate(_ texts: [String], from source: String, to target: String) throws -> [String] {
    try withSession { (session) throws(HostError) in try session.translate(texts, from: source, to: target) }
  }

  func languagePairs() throws -> [LanguagePairStatus] {
    try withSession { (session) throws(HostError) in try session.languages() }
  }

  nonisolated func interrupt() {
    interruption.withLock {
      $0.count += 1
      $0.interrupt?()
    }
  }

  nonisolated func cancel() {
    interruption.withLock {
      $0.isCancelled = true
      $0.count += 1
      $0.interrupt?()
    }
  }

  /// `request` on the session, opened first if there is none. The task's
  /// cancellation and `cancel()` are checked here, besides the interrupt
  /// they send: a request that had not reached this actor when they came
  /// found a session to interrupt (or none), and must not go on with a new one.
  private func withSession<T>(_ request: (any TranslatorSession) throws(HostError) -> T) throws -> T {
    try checkCancellation()
    let session = try started()
    try checkCancellation()
    return try request(session)
  }

  private func checkCancellation() throws {
    try Task.checkCancellation()
    if interruption.withLock(\.isCancelled) { throw CancellationError() }
  }

  /// The session, opened (again) when there is none or the last one ended.
  private func started() throws -> any TranslatorSession {
    if let session, !session.hasEnded, interruption.withLock(\.count) == sessionInterrupts { return session }
    end()
    let interruptsBefore = interruption.withLock(\.count)
    let opened = try ProviderLaunch.translator(
      provider: provider, timeout: timeout, usesService: serviceEnvironment != nil,
      environment: serviceEnvironment ?? ProcessInfo.processInfo.environment, notice: { _ in })
    let interrupted = interruption.withLock {
      guard $0.count == interruptsBefore else { return true }
      $0.interrupt = opened.interruption
      return false
    }
    guard !interrupted else {
      // Interrupted while starting: the request must not be served.
      opened.close()
      throw CancellationError()
    }
    session = opened
    sessionInterrupts = interruptsBefore
    return opened
  }

  private func end() {
    interruption.withLock { $0.interrupt = nil }
    session?.close()
    session = nil
  }
}
