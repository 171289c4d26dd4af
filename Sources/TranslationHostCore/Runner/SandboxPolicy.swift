import FoundationEssentials
import Glibc

/// What the runner enforces on a provider, decided by the host from the
/// bundle's manifest and the user's limits, and handed to the runner on its
/// command line so that it is in force before any provider code is loaded.
package struct SandboxPolicy: Equatable, Sendable {
  /// Resource limits of the runner and everything it starts; 0 means "leave as is".
  package struct Limits: Equatable, Sendable {
    /// Address space of each process, in MiB (`RLIMIT_AS`).
    package var memoryMiB: UInt64 = 4096
    /// CPU time of each process, in seconds (`RLIMIT_CPU`).
    package var cpuSeconds: UInt64 = 600
    /// Open descriptors of each process (`RLIMIT_NOFILE`).
    package var openFiles: UInt64 = 256
    /// Tasks (processes and threads) of the whole sandbox (`RLIMIT_NPROC`),
    /// applied where the runner has a user namespace of its own: only there
    /// does the kernel count the sandbox's tasks rather than all the user's,
    /// and root is exempt from it everywhere.
    package var processes: UInt64 = 512

    /// The environment variables that override the defaults, by field.
    package static let variables = [
      "TRANSLATION_HOST_LIMIT_MEMORY_MIB", "TRANSLATION_HOST_LIMIT_CPU_SECONDS", "TRANSLATION_HOST_LIMIT_OPEN_FILES",
      "TRANSLATION_HOST_LIMIT_PROCESSES",
    ]
  }

  /// The variable that lets providers run where the kernel refuses the
  /// namespaces, with the filter and Landlock only (Documentation/Security.md).
  package static let weakSandboxVariable = "TRANSLATION_HOST_ALLOW_WEAK_SANDBOX"

  /// The provider may use the network (its manifest declares the key as true).
  package var allowsNetwork: Bool
  package var limits: Limits
  /// The host's process id: a runner whose parent is not this process exits.
  package var hostProcess: Int32
  /// The bundle folder, shown read-only to the provider.
  package var bundlePath: String
  /// Further paths shown read-only: those the manifest declares (`TPReadOnlyPaths`).
  package var readOnlyPaths: [String]
  /// The provider's writable folder, its `HOME`; nil for none.
  package var container: String?
  /// Whether the user lets providers run without namespaces where the kernel refuses them.
  package var allowsWeakSandbox: Bool

  package init(
    allowsNetwork: Bool, limits: Limits = Limits(), hostProcess: Int32 = getpid(), bundlePath: String,
    readOnlyPaths: [String] = [], container: String? = nil, allowsWeakSandbox: Bool = false
  ) {
    self.allowsNetwork = allowsNetwork
    self.limits = limits
    self.hostProcess = hostProcess
    self.bundlePath = bundlePath
    self.readOnlyPaths = readOnlyPaths
    self.container = container
    self.allowsWeakSandbox = allowsWeakSandbox
  }

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

  private static func realPath(_ path: String) -> String {
    guard let resolved = Glibc.realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
  }

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

  /// The variables a runner gets: the locale, the time zone, `PATH` and the
  /// provider log level from `environment`; `HOME` and `TMPDIR` in the
  /// container. Nothing else: no sockets, displays, buses or tokens.
  package func environment(from environment: [String: String]) -> [String] {
    let kept = environment.filter { name, _ in
      Self.keptVariables.contains(name) || name.hasPrefix("LC_")
    }
    var result = kept
    // A crash is reported in one line by the host; Swift's backtracer would
    // print pages of registers first. Authors who want it set SWIFT_BACKTRACE.
    result["SWIFT_BACKTRACE"] = environment["SWIFT_BACKTRACE"] ?? "enable=no"
    if let container {
      result["HOME"] = container
      result["TMPDIR"] = container + "/tmp"
    }
    return result.map { "\($0.key)=\($0.value)" }.sorted()
  }

  /// The variables passed through to runners unchanged (besides `LC_*`).
  package static let keptVariables: Set<String> = ["PATH", "LANG", "LANGUAGE", "TZ", "TRANSLATION_HOST_LOG"]

  /// The runner's command-line arguments for this policy.
  package var arguments: [String] {
    var arguments = [
      "--network", allowsNetwork ? "allow" : "deny", "--memory-mib", String(limits.memoryMiB), "--cpu-seconds",
      String(limits.cpuSeconds), "--open-files", String(limits.openFiles), "--processes", String(limits.processes),
      "--host-pid", String(hostProcess), "--bundle", bundlePath, "--weak", allowsWeakSandbox ? "allow" : "refuse",
    ]
    if let container { arguments += ["--container", container] }
    for path in readOnlyPaths { arguments += ["--read-only", path] }
    return arguments
  }

  /// Reads the policy from the runner's command line.
  package init(arguments: [String]) throws(SandboxError) {
    var values: [String: String] = [:]
    var readOnly: [String] = []
    var index = 0
    while index + 1 < arguments.count {
      if arguments[index] == "--read-only" { readOnly.append(arguments[index + 1]) }
      else { values[arguments[index]] = arguments[index + 1] }
      index += 2
    }
    func number(_ name: String) throws(SandboxError) -> UInt64 {
      guard let text = values[name], let value = UInt64(text) else { throw .invalidArguments(arguments) }
      return value
    }
    func choice(_ name: String, _ yes: String, _ no: String) throws(SandboxError) -> Bool {
      guard let value = values[name], value == yes || value == no else { throw .invalidArguments(arguments) }
      return value == yes
    }
    guard let bundlePath = values["--bundle"], bundlePath.hasPrefix("/"), bundlePath != "/" else {
      throw .invalidArguments(arguments)
    }
    self.init(
      allowsNetwork: try choice("--network", "allow", "deny"),
      limits: Limits(
        memoryMiB: try number("--memory-mib"), cpuSeconds: try number("--cpu-seconds"),
        openFiles: try number("--open-files"), processes: try number("--processes")),
      hostProcess: Int32(truncatingIfNeeded: try number("--host-pid")), bundlePath: bundlePath,
      readOnlyPaths: readOnly, container: values["--container"], allowsWeakSandbox: try choice("--weak", "allow", "refuse"))
  }
}

/// A layer of isolation the runner put in force.
package enum SandboxLayer: String, Codable, Sendable, CaseIterable {
  case parentDeathSignal = "parent-death-signal"
  case noTerminal = "no-terminal"
  case pidNamespace = "pid-namespace"
  case networkNamespace = "network-namespace"
  case fileSystem = "file-system"
  case noCapabilities = "no-capabilities"
  case noNewPrivileges = "no-new-privileges"
  case resourceLimits = "resource-limits"
  case processCount = "process-count"
  case landlock = "landlock"
  case systemCallFilter = "system-call-filter"
  case networkFilter = "network-filter"

  /// What the layer does, for `info` and `validate`.
  package var summary: String {
    switch self {
    case .parentDeathSignal: "the provider dies with the host"
    case .noTerminal: "a session of its own with no controlling terminal"
    case .pidNamespace: "own PID namespace and /proc: every process it starts dies with it"
    case .networkNamespace: "own network namespace: no interface but a loopback that is down"
    case .fileSystem: "own mount namespace: the system read-only, its bundle read-only, its container, an empty /tmp"
    case .noCapabilities: "every capability dropped, the bounding set included"
    case .noNewPrivileges: "no_new_privs: no setuid or file-capability gains"
    case .resourceLimits: "resource limits on memory, CPU time and files per process; no core dumps"
    case .processCount: "at most the set number of tasks in the whole sandbox"
    case .landlock: "Landlock: files outside its view and container cannot be opened or written"
    case .systemCallFilter:
      "seccomp: no ptrace, namespaces, mounts, bpf, keys or terminal injection; its processes stay in its group"
    case .networkFilter: "seccomp: every socket but AF_UNIX fails with EPERM"
    }
  }
}

/// A sandbox that cannot be set up as asked.
package enum SandboxError: Error, Equatable, CustomStringConvertible {
  case invalidLimit(String, String)
  case invalidSwitch(String, String)
  case invalidArguments([String])
  case containerUnusable(String, String)
  /// The kernel refused the namespaces (the step, and errno).
  case namespacesRefused(String, Int32)
  /// A step of the set-up failed (the step, and errno).
  case setupFailed(String, Int32)
  case filterFailed(Int32)

  package var description: String {
    switch self {
    case .invalidLimit(let variable, let value):
      "\(variable)='\(value)' is not a whole number; unset it or give a number (0 leaves the limit as it is)"
    case .invalidSwitch(let variable, let value):
      "\(variable)='\(value)' must be 1 or 0"
    case .invalidArguments(let arguments):
      "the runner was started with '\(arguments.joined(separator: " "))'; it is started by translation-host only"
    case .containerUnusable(let folder, let reason):
      "the provider's container '\(folder)' cannot be created (\(reason)); check the folder's permissions"
    case .namespacesRefused(let step, let code):
      "the kernel refused user namespaces (\(step): \(Errno(rawValue: code))), so the provider cannot get its own "
        + "PID, mount and network namespaces; allow them (sysctl user.max_user_namespaces, kernel.unprivileged_userns_clone, "
        + "or the AppArmor userns restriction) or set \(SandboxPolicy.weakSandboxVariable)=1 to run providers without "
        + "them (Documentation/Security.md)"
    case .setupFailed(let step, let code):
      "the sandbox could not be set up (\(step): \(Errno(rawValue: code))); the provider was not loaded"
    case .filterFailed(let code):
      "the seccomp filter could not be installed (error \(code)); the provider was not loaded"
    }
  }
}
