import System

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

    package init(memoryMiB: UInt64 = 4096, cpuSeconds: UInt64 = 600, openFiles: UInt64 = 256, processes: UInt64 = 512) {
      self.memoryMiB = memoryMiB
      self.cpuSeconds = cpuSeconds
      self.openFiles = openFiles
      self.processes = processes
    }
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
    allowsNetwork: Bool, limits: Limits = Limits(), hostProcess: Int32 = Syscalls.processID, bundlePath: String,
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

  /// The variables a runner gets: the locale, the time zone, `PATH` and the
  /// provider log level from `environment`; `HOME` and `TMPDIR` in the
  /// container. Nothing else: no sockets, displays, buses or tokens.
  package func environment(from environment: [String: String]) -> [String] {
    let kept = environment.filter { name, _ in
      Self.keptVariables.contains(name) || name.hasPrefix("LC_")
    }
    var result = kept
    // A crash prints Swift's backtrace of the crashed thread, symbolicated,
    // into the provider's log (its stderr, which the host shows), and the
    // host names its first frames in the provider's code next to the signal
    // (CrashReport). Authors who want more (all threads, registers) set
    // SWIFT_BACKTRACE themselves; `enable=no` turns it off.
    result["SWIFT_BACKTRACE"] = environment["SWIFT_BACKTRACE"] ?? Self.backtraceSettings
    if let container {
      result["HOME"] = container
      result["TMPDIR"] = container + "/tmp"
      // Foundation's home (NSHomeDirectory(), FileManager's) reads the
      // password database, not HOME, unless this says otherwise.
      result["CFFIXED_USER_HOME"] = container
    }
    return result.map { "\($0.key)=\($0.value)" }.sorted()
  }

  /// Swift's backtracer in a runner, unless the user's SWIFT_BACKTRACE says
  /// otherwise: on, never waiting for a debugger, plain text on stderr, the
  /// crashed thread only, without registers and the image list.
  package static let backtraceSettings =
    "enable=yes,interactive=no,color=no,output-to=stderr,threads=crashed,registers=none,images=none"

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
      if arguments[index] == "--read-only" {
        readOnly.append(arguments[index + 1])
      } else {
        values[arguments[index]] = arguments[index + 1]
      }
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
