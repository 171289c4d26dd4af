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
    /// The provider's container on disk, in MiB: each file at most this
    /// (`RLIMIT_FSIZE`, `EFBIG`); the whole container at most this within a
    /// run where the runner can show it through its size-limited view
    /// (`ENOSPC`); and a container over it is not started again until it is
    /// under (the host measures it before each start and after each run).
    package var diskMiB: UInt64 = 4096

    /// The environment variables that override the defaults, by field.
    package static let variables = [
      "TRANSLATION_HOST_LIMIT_MEMORY_MIB", "TRANSLATION_HOST_LIMIT_CPU_SECONDS", "TRANSLATION_HOST_LIMIT_OPEN_FILES",
      "TRANSLATION_HOST_LIMIT_PROCESSES", "TRANSLATION_HOST_LIMIT_DISK_MIB",
    ]

    package init(
      memoryMiB: UInt64 = 4096, cpuSeconds: UInt64 = 600, openFiles: UInt64 = 256, processes: UInt64 = 512,
      diskMiB: UInt64 = 4096
    ) {
      self.memoryMiB = memoryMiB
      self.cpuSeconds = cpuSeconds
      self.openFiles = openFiles
      self.processes = processes
      self.diskMiB = diskMiB
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
  /// Further paths shown read-only: those the manifest declares, resolved and checked.
  package var readOnlyPaths: ReadOnlyPaths
  /// Whether the provider may make memory files.
  package var memoryFiles: MemoryFiles
  /// The provider's writable folder, its `HOME`; nil for none.
  package var container: String?
  /// With the network key: the user-mode network stack (pasta) that
  /// connects the provider's own network namespace to the network; nil
  /// runs it in the host's network namespace (a weak sandbox only).
  package var networkStack: String?
  /// Whether the user lets providers run without namespaces where the kernel refuses them.
  package var allowsWeakSandbox: Bool
  /// What the host measured in the container just before the start (as
  /// `PrivilegedFiles.Report.usedBytes`), where it walked all of it: the
  /// container's size-limited view starts its budget from this rather than
  /// walking the folder again. nil: the runner measures it.
  package var containerUsedBytes: UInt64?

  package init(
    allowsNetwork: Bool, limits: Limits = Limits(), hostProcess: Int32 = Syscalls.processID, bundlePath: String,
    readOnlyPaths: ReadOnlyPaths = ReadOnlyPaths(), memoryFiles: MemoryFiles = MemoryFiles(), container: String? = nil,
    networkStack: String? = nil, allowsWeakSandbox: Bool = false
  ) {
    self.allowsNetwork = allowsNetwork
    self.limits = limits
    self.hostProcess = hostProcess
    self.bundlePath = bundlePath
    self.readOnlyPaths = readOnlyPaths
    self.memoryFiles = memoryFiles
    self.container = container
    self.networkStack = networkStack
    self.allowsWeakSandbox = allowsWeakSandbox
  }

  /// What the manifest's rules grant beyond the default sandbox, one line each.
  package var grants: [String] { [readOnlyPaths.grant, memoryFiles.grant].compactMap(\.self) }

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

  /// The runner's command-line arguments for this policy: the policy in the
  /// runner protocol's encoding (`WireCodable`), as hexadecimal digits.
  package var arguments: [String] {
    var writer = WireWriter()
    encode(to: &writer)
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(writer.bytes.count * 2)
    for byte in writer.bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 0xf)]] }
    return [Self.argumentName, String(decoding: text, as: UTF8.self)]
  }

  static let argumentName = "--policy"

  /// Reads the policy from the runner's command line.
  package init(arguments: [String]) throws(SandboxError) {
    guard arguments.count == 2, arguments[0] == Self.argumentName, arguments[1].utf8.count % 2 == 0 else {
      throw .invalidArguments(arguments)
    }
    var bytes: [UInt8] = []
    var high: UInt8?
    for character in arguments[1].utf8 {
      let value: UInt8
      switch character {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): value = character - UInt8(ascii: "a") + 10
      default: throw .invalidArguments(arguments)
      }
      if let first = high {
        bytes.append(first << 4 | value)
        high = nil
      } else {
        high = value
      }
    }
    var reader = WireReader(bytes)
    do {
      try self.init(from: &reader)
      guard reader.isAtEnd else { throw ProtocolError.malformed("bytes after the policy") }
    } catch {
      throw .invalidArguments(arguments)
    }
  }
}

extension SandboxPolicy: WireCodable {
  package func encode(to writer: inout WireWriter) {
    writer.boolean(allowsNetwork)
    for value in [limits.memoryMiB, limits.cpuSeconds, limits.openFiles, limits.processes, limits.diskMiB] {
      writer.integer(Int32(truncatingIfNeeded: value >> 32))
      writer.integer(Int32(truncatingIfNeeded: value))
    }
    writer.integer(hostProcess)
    writer.string(bundlePath)
    readOnlyPaths.encode(to: &writer)
    memoryFiles.encode(to: &writer)
    writer.optionalString(container)
    writer.optionalString(networkStack)
    writer.boolean(allowsWeakSandbox)
    writer.boolean(containerUsedBytes != nil)
    let used = containerUsedBytes ?? 0
    writer.integer(Int32(truncatingIfNeeded: used >> 32))
    writer.integer(Int32(truncatingIfNeeded: used))
  }

  package init(from reader: inout WireReader) throws(ProtocolError) {
    let allowsNetwork = try reader.boolean()
    var values: [UInt64] = []
    for _ in 0..<5 {
      let high = UInt64(UInt32(bitPattern: try reader.integer()))
      values.append(high << 32 | UInt64(UInt32(bitPattern: try reader.integer())))
    }
    let hostProcess = try reader.integer()
    let bundlePath = try reader.string()
    guard bundlePath.hasPrefix("/"), bundlePath != "/" else { throw .malformed("the bundle path is not absolute") }
    let readOnlyPaths = try ReadOnlyPaths(from: &reader)
    let memoryFiles = try MemoryFiles(from: &reader)
    let container = try reader.optionalString()
    if let container, !container.hasPrefix("/") || container == "/" {
      throw .malformed("the container is not an absolute path below /")
    }
    let networkStack = try reader.optionalString()
    if let networkStack, !networkStack.hasPrefix("/") { throw .malformed("the network stack is not an absolute path") }
    self.init(
      allowsNetwork: allowsNetwork,
      limits: Limits(
        memoryMiB: values[0], cpuSeconds: values[1], openFiles: values[2], processes: values[3], diskMiB: values[4]),
      hostProcess: hostProcess, bundlePath: bundlePath, readOnlyPaths: readOnlyPaths, memoryFiles: memoryFiles,
      container: container, networkStack: networkStack, allowsWeakSandbox: try reader.boolean())
    let measured = try reader.boolean()
    let high = UInt64(UInt32(bitPattern: try reader.integer()))
    let used = high << 32 | UInt64(UInt32(bitPattern: try reader.integer()))
    containerUsedBytes = measured ? used : nil
  }
}
