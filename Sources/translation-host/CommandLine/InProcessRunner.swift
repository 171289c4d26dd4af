import Core
import Foundation
import ProviderLoading
import RunnerProtocol
import Service
import System

/// `--in-process`, for debugging a provider: the runner's own loop
/// (`RunnerService`) on a thread of this process, spoken to over a socket
/// pair by the same `RunnerClient` as a sandboxed runner, so the provider is
/// driven by exactly the code that drives it in a runner, and a debugger
/// attached to `translation-host` can step into it. No sandbox; deadlines
/// still apply, but a provider that misses one keeps its thread (and a crash
/// takes the host down).
enum InProcessRunner {
  /// Starts the loop and has it load `bundle`'s provider with the user's
  /// settings, `settingOverrides` replacing them (`translate --raw`).
  static func launch(
    bundle: ProviderBundle, timeout: Duration, settingOverrides: [String: SettingValue] = [:]
  ) throws -> RunnerClient {
    let (host, runner): (FileDescriptor, FileDescriptor)
    do { (host, runner) = try Syscalls.socketPair() } catch { throw RunnerError.spawnFailed("an in-process runner", error) }
    let prefix = "translation-host: provider '\(bundle.identifier)': "
    let thread = Thread {
      RunnerService(channel: FrameChannel(fd: runner), sandbox: .success([]), logPrefix: prefix).run()
    }
    thread.name = "in-process runner"
    thread.start()
    let client = RunnerClient.inProcess(bundle: bundle, socket: host, timeout: timeout)
    try client.hello(settings: try SettingsStore.standard().effectiveJSON(for: bundle, overrides: settingOverrides))
    return client
  }
}
