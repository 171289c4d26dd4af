import CRunnerSandbox
import Glibc
import RunnerProtocol

/// Puts the runner's sandbox in force, before any provider code is loaded:
/// death with the host, no stray descriptors and no terminal; PID, mount,
/// IPC and (without the network key) network namespaces with a private root;
/// no capabilities; no_new_privs and resource limits; Landlock; then the
/// seccomp filter last, since it refuses the calls the steps before make.
///
/// Nothing is silently weaker: where the kernel refuses the namespaces the
/// provider is not loaded, unless the user allowed a weak sandbox; any other
/// step that fails stops the provider from loading.
enum RunnerSandbox {
  /// Applies `policy` and returns the layers in force.
  /// - Throws: `SandboxError` when a layer could not be put in force; the
  ///   provider must not run then.
  static func apply(_ policy: SandboxPolicy) throws(SandboxError) -> [SandboxLayer] {
    var bits = tp_sandbox_detach(Runner.descriptor.rawValue, policy.hostProcess)
    var limits = tp_sandbox_limits(
      address_space_bytes: policy.limits.memoryMiB << 20, cpu_seconds: policy.limits.cpuSeconds,
      open_files: policy.limits.openFiles, processes: policy.limits.processes,
      file_bytes: policy.limits.diskMiB << 20)
    // Before the namespaces, so that pasta's helper, PID 1 and all the provider starts are in the group.
    bits |= tp_sandbox_control_group(&limits)
    // Root is exempt from RLIMIT_NPROC: where no group bounds its tasks, its provider runs as nobody.
    let provider = geteuid() == 0 && bits & Int32(TP_LAYER_TASK_GROUP) == 0 ? Self.unprivilegedUser() : nil
    let denyNetwork: Int32 = policy.allowsNetwork ? 0 : 1
    var failure = tp_sandbox_failure()
    let result = withFiles(policy, provider: provider) { files -> Result<Int32, SandboxError> in
      var ownUserNamespace: Int32 = 0
      let entered: Int32
      if policy.allowsNetwork, let stack = policy.networkStack {
        entered = stack.withCString { tp_sandbox_enter_namespaces(denyNetwork, $0, files, &ownUserNamespace, &failure) }
      } else {
        entered = tp_sandbox_enter_namespaces(denyNetwork, nil, files, &ownUserNamespace, &failure)
      }
      if entered == -1 && !policy.allowsWeakSandbox { return .failure(.namespacesRefused(step(failure), failure.error)) }
      if entered < -1 { return .failure(.setupFailed(step(failure), failure.error)) }
      var bits = max(entered, 0)
      let capabilities = tp_sandbox_drop_capabilities(&failure)
      guard capabilities >= 0 else { return .failure(.setupFailed(step(failure), failure.error)) }
      bits |= capabilities
      bits |= tp_sandbox_limit(&limits, ownUserNamespace != 0 || bits & Int32(TP_LAYER_UNPRIVILEGED_USER) != 0 ? 1 : 0)
      let privateRoot: Int32 = bits & Int32(TP_LAYER_FILE_SYSTEM) != 0 ? 1 : 0
      let landlock = tp_sandbox_landlock(denyNetwork, privateRoot, files, &failure)
      guard landlock >= 0 else { return .failure(.setupFailed(step(failure), failure.error)) }
      bits |= landlock
      return .success(bits)
    }
    bits |= try result.get()
    let filter = tp_sandbox_filter(denyNetwork, policy.memoryFiles.isAllowed ? 1 : 0)
    if filter < 0 { throw .filterFailed(-filter) }
    bits |= filter
    return SandboxLayer.allCases.filter { bits & Self.bit(of: $0) != 0 }
  }

  /// Calls `body` with the C view of the policy's paths, valid during the call.
  /// The user and group `nobody`, from the password database; nil where there is none.
  private static func unprivilegedUser() -> (user: uid_t, group: gid_t)? {
    guard let entry = getpwnam("nobody"), entry.pointee.pw_uid != 0 else { return nil }
    return (entry.pointee.pw_uid, entry.pointee.pw_gid)
  }

  private static func withFiles<T>(
    _ policy: SandboxPolicy, provider: (user: uid_t, group: gid_t)?, _ body: (UnsafePointer<tp_sandbox_files>) -> T
  ) -> T {
    let readOnly = ([policy.bundlePath] + policy.readOnlyPaths.paths).map { strdup($0) }
    let container = policy.container.map { strdup($0) } ?? nil
    defer {
      readOnly.forEach { free($0) }
      free(container)
    }
    let pointers = readOnly.map { UnsafePointer<CChar>($0) }
    return pointers.withUnsafeBufferPointer { paths in
      // The scratch space (/tmp, /dev/shm, the container's tmp) is bounded by the memory limit,
      // the container by the disk limit (its size-limited view, where /dev/fuse can be opened).
      var files = tp_sandbox_files(
        read_only: paths.baseAddress, read_only_count: paths.count, container: container,
        scratch_bytes: policy.limits.memoryMiB << 20, disk_bytes: policy.limits.diskMiB << 20,
        provider_user: provider?.user ?? 0, provider_group: provider?.group ?? 0,
        container_measured: policy.containerUsedBytes == nil ? 0 : 1, container_used_bytes: policy.containerUsedBytes ?? 0)
      return withUnsafePointer(to: &files) { body($0) }
    }
  }

  private static func step(_ failure: tp_sandbox_failure) -> String {
    withUnsafeBytes(of: failure.step) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
  }

  private static func bit(of layer: SandboxLayer) -> Int32 {
    switch layer {
    case .parentDeathSignal: Int32(TP_LAYER_PARENT_DEATH_SIGNAL)
    case .noTerminal: Int32(TP_LAYER_NO_TERMINAL)
    case .pidNamespace: Int32(TP_LAYER_PID_NAMESPACE)
    case .networkNamespace: Int32(TP_LAYER_NETWORK_NAMESPACE)
    case .userModeNetwork: Int32(TP_LAYER_USER_MODE_NETWORK)
    case .fileSystem: Int32(TP_LAYER_FILE_SYSTEM)
    case .noCapabilities: Int32(TP_LAYER_NO_CAPABILITIES)
    case .noNewPrivileges: Int32(TP_LAYER_NO_NEW_PRIVS)
    case .resourceLimits: Int32(TP_LAYER_RESOURCE_LIMITS)
    case .processCount: Int32(TP_LAYER_PROCESS_COUNT)
    case .taskGroup: Int32(TP_LAYER_TASK_GROUP)
    case .memoryGroup: Int32(TP_LAYER_MEMORY_GROUP)
    case .diskBudget: Int32(TP_LAYER_DISK_BUDGET)
    case .unprivilegedUser: Int32(TP_LAYER_UNPRIVILEGED_USER)
    case .landlock: Int32(TP_LAYER_LANDLOCK)
    case .systemCallFilter: Int32(TP_LAYER_SYSTEM_CALL_FILTER)
    case .networkFilter: Int32(TP_LAYER_NETWORK_FILTER)
    }
  }
}
