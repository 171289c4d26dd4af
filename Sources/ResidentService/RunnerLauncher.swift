import Core
import Dispatch
import FoundationEssentials
import Service
import System

/// Spawns runners for the service from one thread that lives as long as the
/// service.
///
/// A runner asks the kernel to kill it when its parent goes
/// (`PR_SET_PDEATHSIG`), and for the kernel the parent is the *thread* that
/// spawned it. A runner spawned from a connection's thread would die when
/// that connection ends, and one spawned from a Dispatch worker when the
/// pool retires the worker; so every spawn happens here, one at a time.
/// Only the spawn: loading the provider (`hello`: `dlopen`, the provider's
/// `init`) runs on the caller's thread, so that a provider that hangs while
/// loading holds up its own request and no other provider's cold start.
final class RunnerLauncher: @unchecked Sendable {
  private let condition = Condition()
  private var jobs: [@Sendable () -> Void] = []

  init() {
    DetachedThread.start(name: "runner-launcher") { [self] in loop() }
  }

  /// Starts a sandboxed runner for `bundle` exactly as the direct path does
  /// (`RunnerClient.launch(bundle:timeout:)`): spawned on the launcher
  /// thread, the provider loaded on this one.
  func launch(_ bundle: ProviderBundle, timeout: Duration) throws(HostError) -> RunnerClient {
    let launch = try RunnerLaunch(bundle: bundle)
    let done = DispatchSemaphore(value: 0)
    let outcome = Outcome()
    condition.lock()
    jobs.append {
      outcome.result = Result { () throws(HostError) in
        try RunnerClient.spawn(bundle: bundle, policy: launch.policy, runnerPath: launch.runnerPath, timeout: timeout)
      }
      done.signal()
    }
    condition.signal()
    condition.unlock()
    done.wait()
    let client = try outcome.result!.get()
    try client.hello(settings: launch.settings)
    return client
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
    var result: Result<RunnerClient, HostError>?
  }
}
