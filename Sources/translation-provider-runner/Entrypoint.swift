import ProviderLoading
import RunnerProtocol

/// `translation-provider-runner <bundle-id> <policy…>`: serves one provider
/// over descriptor 3 for `translation-host`. Not meant to be run by hand; the
/// bundle id is there so that `ps` shows which provider a runner serves.
@main
enum Entrypoint {
  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    let channel = FrameChannel(fd: Runner.descriptor)
    let sandbox: Result<[SandboxLayer], SandboxError>
    do {
      let policy = try SandboxPolicy(arguments: Array(arguments.dropFirst()))
      sandbox = .success(try RunnerSandbox.apply(policy))
    } catch {
      sandbox = .failure(error)
    }
    // This is the main thread: the provider's main queue and main actor run here, between requests.
    RunnerService(channel: channel, sandbox: sandbox, drivesMainQueue: true).run()
  }
}
