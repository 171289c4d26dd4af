import Foundation

/// Starts runners for the service from one thread that lives as long as the
/// service.
///
/// A runner asks the kernel to kill it when its parent goes
/// (`PR_SET_PDEATHSIG`), and for the kernel the parent is the *thread* that
/// spawned it. A runner spawned from a connection's thread would die when
/// that connection ends, and one spawned from a Dispatch worker when the
/// pool retires the worker; so every launch happens here, one at a time.
final class RunnerLauncher: @unchecked Sendable {
  private let condition = NSCondition()
  private var jobs: [@Sendable () -> Void] = []

  init() {
    let thread = Thread { [self] in loop() }
    thread.name = "runner-launcher"
    thread.start()
  }

  /// Starts a sandboxed runner for `bundle` exactly as the direct path does
  /// (`RunnerClient.launch(bundle:timeout:)`), on the launcher thread.
  func launch(_ bundle: ProviderBundle, timeout: Double) throws -> RunnerClient {
    let done = DispatchSemaphore(value: 0)
    let outcome = Outcome()
    condition.lock()
    jobs.append {
      do { outcome.client = try RunnerClient.launch(bundle: bundle, timeout: timeout) } catch { outcome.error = error }
      done.signal()
    }
    condition.signal()
    condition.unlock()
    done.wait()
    if let error = outcome.error { throw error }
    return outcome.client!
  }

  private func loop() {
    while true {
      condition.lock()
      while jobs.isEmpty { condition.wait() }
      let job = jobs.removeFirst()
      condition.unlock()
      job()
    }
  }

  /// A launch's result, handed from the launcher thread to the caller, who
  /// waits on a semaphore and reads it after.
  private final class Outcome: @unchecked Sendable {
    var client: RunnerClient?
    var error: (any Error)?
  }
}
