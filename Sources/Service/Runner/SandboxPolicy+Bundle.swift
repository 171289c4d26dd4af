import Core
import FoundationEssentials
import RunnerProtocol
import System

extension SandboxPolicy {
  /// The policy for `bundle`, with limits and the weak-sandbox choice from
  /// the environment and the container under `$XDG_DATA_HOME`.
  /// - Throws: `SandboxError.invalidLimit` for a variable that is not a number.
  package static func forBundle(
    _ bundle: ProviderBundle, environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(SandboxError) -> SandboxPolicy {
    var limits = Limits()
    let fields: [WritableKeyPath<Limits, UInt64>] = [\.memoryMiB, \.cpuSeconds, \.openFiles, \.processes]
    for (variable, field) in zip(Limits.variables, fields) {
      guard let text = environment[variable] else { continue }
      guard let value = UInt64(text) else { throw .invalidLimit(variable, text) }
      limits[keyPath: field] = value
    }
    let weak = environment[weakSandboxVariable] ?? ""
    guard ["", "0", "1"].contains(weak) else { throw .invalidSwitch(weakSandboxVariable, weak) }
    return SandboxPolicy(
      allowsNetwork: bundle.allowsNetworkAccess, limits: limits, bundlePath: Self.realPath(bundle.path),
      readOnlyPaths: bundle.readOnlyPaths,
      container: XDGFolders(environment: environment).data + "/containers/" + bundle.identifier,
      allowsWeakSandbox: weak == "1")
  }

  private static func realPath(_ path: String) -> String { Syscalls.realPath(path) ?? path }

  /// Creates the container (and its `tmp`) if missing, readable by the user only.
  /// - Throws: `SandboxError.containerUnusable` naming the folder.
  package func makeContainer() throws(SandboxError) {
    guard let container else { return }
    do {
      try FileManager.default.createDirectory(
        atPath: container + "/tmp", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw .containerUnusable(container, String(describing: error))
    }
  }
}
