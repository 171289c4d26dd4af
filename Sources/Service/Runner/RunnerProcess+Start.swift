import Core
import FoundationEssentials
import RunnerProtocol
import System

extension RunnerProcess {
  /// Starts a sandboxed `translation-provider-runner` for `bundle` under
  /// `policy`, which waits for `hello` on the socket whose other end this
  /// returns: the bundle's container made, the runner's output forwarded.
  static func start(
    bundle: ProviderBundle, policy: SandboxPolicy, runnerPath: String
  ) throws(HostError) -> (socket: FileDescriptor, process: RunnerProcess) {
    var policy = policy
    do {
      try policy.makeContainer()
      if let container = policy.container {
        // The runner's view of the container starts its budget from this measure.
        policy.containerUsedBytes = try ContainerCheck(
          provider: bundle.identifier, container: container, limits: policy.limits
        ).beforeStart()
      }
    } catch {
      throw RunnerError.sandboxFailed(provider: bundle.identifier, message: error.description).hostError
    }
    let pair: (FileDescriptor, FileDescriptor)
    do { pair = try Syscalls.socketPair() } catch { throw RunnerError.spawnFailed(runnerPath, error).hostError }
    // Owned: each end is closed when this function leaves, by a throw or not, unless handed on.
    let host = OwnedDescriptor(pair.0)
    let runner = OwnedDescriptor(pair.1)
    let output: ProviderOutput
    do {
      output = try ProviderOutput(
        provider: bundle.identifier, providerImage: String(bundle.executablePath.split(separator: "/").last ?? ""))
    } catch {
      throw RunnerError.spawnFailed(runnerPath, error).hostError
    }
    let pid: Int32
    do {
      pid = try Syscalls.spawn(
        runnerPath, arguments: [bundle.identifier] + policy.arguments,
        environment: policy.environment(from: ProcessInfo.processInfo.environment),
        actions: descriptors(protocol: runner.descriptor, output: output.writeEnd), newSession: true)
    } catch {
      output.abandon()
      throw RunnerError.spawnFailed(runnerPath, error).hostError
    }
    _ = consume runner  // the runner has its copy: closed here, so its end is the only one
    Syscalls.close(output.writeEnd)
    output.start()
    return (host.release(), .sandboxed(pid: pid, output: output))
  }
}
