/// A layer of isolation the runner put in force.
package enum SandboxLayer: String, Codable, Sendable, CaseIterable {
  case parentDeathSignal = "parent-death-signal"
  case noTerminal = "no-terminal"
  case pidNamespace = "pid-namespace"
  case networkNamespace = "network-namespace"
  case userModeNetwork = "user-mode-network"
  case fileSystem = "file-system"
  case noCapabilities = "no-capabilities"
  case noNewPrivileges = "no-new-privileges"
  case resourceLimits = "resource-limits"
  case processCount = "process-count"
  case taskGroup = "task-group"
  case memoryGroup = "memory-group"
  case diskBudget = "disk-budget"
  case unprivilegedUser = "unprivileged-user"
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
    case .userModeNetwork:
      "own network namespace reached through pasta: the network, but none of the machine's abstract sockets (X11, the session bus)"
    case .fileSystem: "own mount namespace: the system read-only, its bundle read-only, its container, an empty /tmp"
    case .noCapabilities: "every capability dropped, the bounding set included"
    case .noNewPrivileges: "no_new_privs: no setuid or file-capability gains"
    case .resourceLimits: "resource limits on memory, CPU time and files per process; no core dumps"
    case .processCount: "at most the set number of tasks in the whole sandbox"
    case .taskGroup: "a control group of its own: at most the set number of tasks in the whole sandbox, root's too"
    case .memoryGroup:
      "the control group's memory limit: the whole sandbox's memory, memory files and tmpfs pages included"
    case .diskBudget:
      "its container through a size-limited view: writes past the disk limit fail with ENOSPC, within one run too"
    case .unprivilegedUser:
      "run by root where no control group can be made: the provider runs as nobody, so the task limit binds it"
    case .landlock: "Landlock: files outside its view and container cannot be opened or written"
    case .systemCallFilter:
      "seccomp: no ptrace, namespaces, mounts, bpf, keys or terminal injection; its processes stay in its group"
    case .networkFilter: "seccomp: every socket but AF_UNIX fails with EPERM"
    }
  }
}
