import Glibc
import Synchronization
import TranslationHostCore

/// The direct path: the provider runs in a sandboxed
/// `translation-provider-runner` that this process starts on first use and
/// keeps for the backend's life, as `translation-host translate` does.
///
/// `RunnerClient` is not thread-safe and blocks on its socket, so the runner
/// belongs to this actor, and the actor runs on a thread of its own
/// (`ThreadExecutor`, which says why a dispatch queue would not do), never
/// on the cooperative pool. Only `interrupt()`
/// crosses threads: it kills the runner's process group through the pid kept
/// under a mutex, which makes the blocked request fail as a runner that
/// ended. A runner that ended (crash, deadline, interrupt) is replaced by a
/// new one on the next request.
actor DirectBackend: TranslationBackend {
  /// Seconds each request may take, as the CLI's default `--timeout`.
  static let defaultTimeout = 30.0

  private let executor = ThreadExecutor(name: "Translation.DirectBackend")
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  /// A bundle id, name or path, or nil for the user's default provider.
  private let provider: String?
  private let timeout: Double
  private var runner: RunnerClient?
  /// The running runner's pid, for `interrupt()`.
  private let runningProcess = Mutex<Int32?>(nil)

  init(provider: String?, timeout: Double = defaultTimeout) {
    self.provider = provider
    self.timeout = timeout
  }

  // Isolated, so the runner is closed on the backend's queue, never on the cooperative pool.
  isolated deinit { runner?.close() }

  func prepare() throws {
    _ = try started()
  }

  func translate(_ texts: [String], from source: String, to target: String) throws -> [String] {
    try started().translate(texts, from: source, to: target)
  }

  func languagePairs() throws -> [LanguagePairStatus] {
    try started().languages()
  }

  nonisolated func interrupt() {
    runningProcess.withLock { pid in
      if let pid { Syscalls.kill(-pid, SIGKILL) }
    }
  }

  /// The runner, started (again) when there is none or the last one ended.
  private func started() throws -> RunnerClient {
    if let runner, !runner.hasEnded { return runner }
    if let runner {
      runningProcess.withLock { $0 = nil }
      runner.close()
      self.runner = nil
    }
    let bundle = try ProviderResolution.bundle(named: provider, notice: { _ in })
    let launched = try RunnerClient.launch(bundle: bundle, timeout: timeout)
    runner = launched
    runningProcess.withLock { $0 = launched.processIdentifier }
    return launched
  }
}
