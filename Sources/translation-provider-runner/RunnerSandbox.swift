import CRunnerSandbox
import TranslationHostCore

/// Puts the runner's sandbox in force, before any provider code is loaded:
/// death with the host, no stray descriptors, namespaces where the kernel
/// allows them, no_new_privs and resource limits, then the seccomp filter.
enum RunnerSandbox {
  /// Applies `policy` and returns the layers in force.
  /// - Throws: `SandboxError.filterFailed` when the seccomp filter could not
  ///   be installed: the provider must not run then.
  static func apply(_ policy: SandboxPolicy) throws(SandboxError) -> [SandboxLayer] {
    var bits = tp_sandbox_detach(RunnerProtocol.runnerDescriptor, policy.hostProcess)
    bits |= tp_sandbox_enter_namespaces(policy.allowsNetwork ? 0 : 1)
    var limits = tp_sandbox_limits(
      address_space_bytes: policy.limits.memoryMiB << 20, cpu_seconds: policy.limits.cpuSeconds,
      open_files: policy.limits.openFiles, processes: policy.limits.processes)
    bits |= tp_sandbox_limit(&limits)
    let filter = tp_sandbox_filter(policy.allowsNetwork ? 0 : 1)
    if filter < 0 { throw .filterFailed(-filter) }
    bits |= filter
    return Self.layers(bits)
  }

  private static func layers(_ bits: Int32) -> [SandboxLayer] {
    let table: [(Int32, SandboxLayer)] = [
      (Int32(TP_LAYER_PARENT_DEATH_SIGNAL), .parentDeathSignal), (Int32(TP_LAYER_PID_NAMESPACE), .pidNamespace),
      (Int32(TP_LAYER_NETWORK_NAMESPACE), .networkNamespace), (Int32(TP_LAYER_NO_NEW_PRIVS), .noNewPrivileges),
      (Int32(TP_LAYER_RESOURCE_LIMITS), .resourceLimits), (Int32(TP_LAYER_PROCESS_FILTER), .processFilter),
      (Int32(TP_LAYER_NETWORK_FILTER), .networkFilter),
    ]
    return table.filter { bits & $0.0 != 0 }.map(\.1)
  }
}
