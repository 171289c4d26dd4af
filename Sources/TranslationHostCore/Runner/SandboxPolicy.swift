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
    /// Processes of the user (`RLIMIT_NPROC`). Off by default: the kernel
    /// counts every thread of the user, not of the provider, so a limit low
    /// enough to matter would stop providers on a busy desktop, and it does
    /// not apply to root. The PID namespace and the deadline bound a fork bomb.
    package var processes: UInt64 = 0

    /// The environment variables that override the defaults, by field.
    package static let variables = [
      "TRANSLATION_HOST_LIMIT_MEMORY_MIB", "TRANSLATION_HOST_LIMIT_CPU_SECONDS", "TRANSLATION_HOST_LIMIT_OPEN_FILES",
      "TRANSLATION_HOST_LIMIT_PROCESSES",
    ]
  }

  /// The provider may use the network (its manifest declares the key as true).
  package var allowsNetwork: Bool
  package var limits: Limits
  /// The host's process id: a runner whose parent is not this process exits.
  package var hostProcess: Int32

  package init(allowsNetwork: Bool, limits: Limits = Limits(), hostProcess: Int32 = getpid()) {
    self.allowsNetwork = allowsNetwork
    self.limits = limits
    self.hostProcess = hostProcess
  }

  /// The policy for `bundle`, with limits from the environment.
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
    return SandboxPolicy(allowsNetwork: bundle.allowsNetworkAccess, limits: limits)
  }

  /// The runner's command-line arguments for this policy.
  package var arguments: [String] {
    [
      "--network", allowsNetwork ? "allow" : "deny", "--memory-mib", String(limits.memoryMiB), "--cpu-seconds",
      String(limits.cpuSeconds), "--open-files", String(limits.openFiles), "--processes", String(limits.processes),
      "--host-pid", String(hostProcess),
    ]
  }

  /// Reads the policy from the runner's command line.
  package init(arguments: [String]) throws(SandboxError) {
    var values: [String: String] = [:]
    var index = 0
    while index + 1 < arguments.count {
      values[arguments[index]] = arguments[index + 1]
      index += 2
    }
    func number(_ name: String) throws(SandboxError) -> UInt64 {
      guard let text = values[name], let value = UInt64(text) else { throw .invalidArguments(arguments) }
      return value
    }
    guard let network = values["--network"], network == "allow" || network == "deny" else {
      throw .invalidArguments(arguments)
    }
    self.init(
      allowsNetwork: network == "allow",
      limits: Limits(
        memoryMiB: try number("--memory-mib"), cpuSeconds: try number("--cpu-seconds"),
        openFiles: try number("--open-files"), processes: try number("--processes")),
      hostProcess: Int32(truncatingIfNeeded: try number("--host-pid")))
  }
}

/// A layer of isolation the runner put in force.
package enum SandboxLayer: String, Codable, Sendable, CaseIterable {
  case parentDeathSignal = "parent-death-signal"
  case pidNamespace = "pid-namespace"
  case networkNamespace = "network-namespace"
  case noNewPrivileges = "no-new-privileges"
  case resourceLimits = "resource-limits"
  case processFilter = "process-filter"
  case networkFilter = "network-filter"

  /// What the layer does, for `info` and `validate`.
  package var summary: String {
    switch self {
    case .parentDeathSignal: "the provider dies with the host"
    case .pidNamespace: "own PID namespace: every process it starts dies with it"
    case .networkNamespace: "own network namespace: no interface but a loopback that is down"
    case .noNewPrivileges: "no_new_privs: no setuid or file-capability gains"
    case .resourceLimits: "resource limits on memory, CPU time, files and processes; no core dumps"
    case .processFilter: "seccomp: its processes cannot leave its process group"
    case .networkFilter: "seccomp: every socket but AF_UNIX, and io_uring, fail with EPERM"
    }
  }
}

/// A sandbox that cannot be set up as asked.
package enum SandboxError: Error, Equatable, CustomStringConvertible {
  case invalidLimit(String, String)
  case invalidArguments([String])
  case filterFailed(Int32)

  package var description: String {
    switch self {
    case .invalidLimit(let variable, let value):
      "\(variable)='\(value)' is not a whole number; unset it or give a number (0 leaves the limit as it is)"
    case .invalidArguments(let arguments):
      "the runner was started with '\(arguments.joined(separator: " "))'; it is started by translation-host only"
    case .filterFailed(let code):
      "the seccomp filter could not be installed (error \(code)); the provider was not loaded"
    }
  }
}
