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
    let fields: [WritableKeyPath<Limits, UInt64>] = [\.memoryMiB, \.cpuSeconds, \.openFiles, \.processes, \.diskMiB]
    for (variable, field) in zip(Limits.variables, fields) {
      guard let text = environment[variable] else { continue }
      guard let value = UInt64(text) else { throw .invalidLimit(variable, text) }
      limits[keyPath: field] = value
    }
    let weak = environment[weakSandboxVariable] ?? ""
    guard ["", "0", "1"].contains(weak) else { throw .invalidSwitch(weakSandboxVariable, weak) }
    var networkStack: String?
    if bundle.allowsNetworkAccess {
      networkStack = Self.locateNetworkStack()
      if networkStack == nil && weak != "1" { throw .networkStackMissing(Self.networkStackCandidates) }
    }
    return SandboxPolicy(
      allowsNetwork: bundle.allowsNetworkAccess, limits: limits, bundlePath: Self.realPath(bundle.path),
      readOnlyPaths: try readOnlyPaths(bundle, cleanFolders: XDGFolders(environment: environment).cleanFolders),
      memoryFiles: MemoryFiles(isAllowed: bundle.allowsMemoryFiles),
      container: XDGFolders(environment: environment).data + "/containers/" + bundle.identifier,
      networkStack: networkStack, allowsWeakSandbox: weak == "1")
  }

  /// Where Debian's passt package puts pasta; no variable or `PATH` can point
  /// elsewhere, since it runs outside the sandbox.
  static let networkStackCandidates = ["/usr/bin/pasta", "/usr/sbin/pasta"]

  /// The first candidate that is a regular file of root's that no one else may write.
  static func locateNetworkStack() -> String? {
    networkStackCandidates.first { path in
      guard let status = try? FileStatus(path: path) else { return false }
      return status.isRegularFile && status.owner == 0 && !status.isWritableByOthers && status.mode & 0o111 != 0
    }
  }

  /// The real paths of what the manifest declares, checked again now (a
  /// link may have changed since the bundle was read); missing ones are left out.
  /// - Throws: `SandboxError.readOnlyPathRefused` for a path the check refuses now.
  private static func readOnlyPaths(
    _ bundle: ProviderBundle, cleanFolders: CleanFolders
  ) throws(SandboxError) -> ReadOnlyPaths {
    guard !bundle.readOnlyPaths.isEmpty else { return ReadOnlyPaths() }
    let checker = ReadOnlyPaths.Checker.system(cleanFolders: cleanFolders)
    var paths: [String] = []
    for path in bundle.readOnlyPaths {
      switch checker.verdict(for: path) {
      case .accepted(let real): if let real, !paths.contains(real) { paths.append(real) }
      case .refused(let reason): throw .readOnlyPathRefused(bundle.path + "/Info.plist", path, reason)
      }
    }
    return ReadOnlyPaths(paths)
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
