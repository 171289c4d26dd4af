import Core
import Dispatch
import FoundationEssentials
import ProviderLoading
import RunnerProtocol
import Service
import Synchronization
import System

/// `--in-process`, for debugging a provider: the runner's own loop
/// (`RunnerService`) in this process, spoken to over a socket pair by the
/// same `RunnerClient` as a sandboxed runner, so the provider is driven by
/// exactly the code that drives it in a runner, and a debugger attached to
/// `translation-host` can step into it. No sandbox; deadlines still apply,
/// but a provider that misses one keeps its thread (and a crash takes the
/// host down).
///
/// As in a runner, the loop runs on the main thread, which runs the
/// provider's main queue and main actor between requests: with
/// `--in-process`, `Entrypoint` gives the main thread to `serveOnMainThread`
/// and runs the command on a thread of its own.
enum InProcessRunner {
  /// Starts the loop and has it load `bundle`'s provider with the user's
  /// settings, `settingOverrides` replacing them (`translate --raw`).
  static func launch(
    bundle: ProviderBundle, timeout: Duration, settingOverrides: [String: SettingValue] = [:]
  ) throws -> RunnerClient {
    let (host, runner): (FileDescriptor, FileDescriptor)
    do { (host, runner) = try Syscalls.socketPair() } catch { throw RunnerError.spawnFailed("an in-process runner", error) }
    let prefix = "translation-host: provider '\(bundle.identifier)': "
    if MainThreadLoops.isServing {
      MainThreadLoops.hand(
        RunnerService(channel: FrameChannel(fd: runner), sandbox: .success([]), logPrefix: prefix, drivesMainQueue: true))
    } else {
      DetachedThread.start(name: "in-process runner") {
        RunnerService(channel: FrameChannel(fd: runner), sandbox: .success([]), logPrefix: prefix).run()
      }
    }
    let client = RunnerClient.inProcess(bundle: bundle, socket: host, timeout: timeout)
    try client.hello(settings: try SettingsStore.standard().effectiveJSON(for: bundle, overrides: settingOverrides))
    return client
  }

  /// Runs `command` on a thread of its own and gives this thread, the main
  /// one, to the in-process runners it starts; exits with the command's status.
  static func serveOnMainThread(_ command: @escaping @Sendable () -> Int32) -> Never {
    MainThreadLoops.isServing = true
    DetachedThread.start(name: "translation-host command", stackBytes: 8 << 20) { Syscalls.exit(command()) }
    MainThreadLoops.serveForever()
  }
}

/// The in-process runners' loops waiting for the main thread, one at a time.
private enum MainThreadLoops {
  /// A loop handed from the command's thread to the main thread.
  private final class Handed: @unchecked Sendable {
    let service: RunnerService
    init(_ service: RunnerService) { self.service = service }
  }

  nonisolated(unsafe) static var isServing = false
  private static let waiting = Mutex<[Handed]>([])
  private static let ready = DispatchSemaphore(value: 0)

  static func hand(_ service: RunnerService) {
    let handed = Handed(service)
    waiting.withLock { $0.append(handed) }
    ready.signal()
  }

  static func serveForever() -> Never {
    while true {
      ready.wait()
      guard let next = waiting.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
      next.service.run()
    }
  }
}
