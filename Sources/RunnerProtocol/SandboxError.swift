import System

/// A sandbox that cannot be set up as asked.
package enum SandboxError: HostErrorConvertible, Equatable {
  case invalidLimit(String, String)
  case invalidSwitch(String, String)
  case invalidArguments([String])
  case containerUnusable(String, String)
  /// The container (the folder) holds more than the disk limit (MiB used, the limit in MiB).
  case containerOverLimit(String, usedMiB: UInt64, limitMiB: UInt64)
  /// A path the manifest (the file) declares under `TPReadOnlyPaths` that the check refuses now (the reason).
  case readOnlyPathRefused(String, String, String)
  /// A provider with the network key needs the user-mode network stack, found at none of these paths.
  case networkStackMissing([String])
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
    case .containerOverLimit(let folder, let used, let limit):
      "the provider's container '\(folder)' holds \(used) MiB, over its limit of \(limit) MiB "
        + "(TRANSLATION_HOST_LIMIT_DISK_MIB); the provider was not started: remove what it no longer needs from "
        + "that folder, or raise the limit"
    case .readOnlyPathRefused(let file, let path, let reason):
      "\(file): key '\(ReadOnlyPaths.manifestKey)' names '\(path)', which \(reason); the provider was not started: remove the path from the manifest"
    case .networkStackMissing(let paths):
      "a provider with the network key runs in a network namespace of its own, reached through pasta, which is not installed (\(paths.joined(separator: ", "))); install Debian's passt package, or set \(SandboxPolicy.weakSandboxVariable)=1 to run it in the machine's network namespace, where it reaches the abstract sockets of X11 and the session bus (Documentation/Security.md)"
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

  package var hostError: HostError {
    switch self {
    case .invalidLimit, .invalidSwitch, .invalidArguments: HostError(.usage, description)
    case .containerUnusable, .containerOverLimit, .readOnlyPathRefused, .networkStackMissing, .namespacesRefused, .setupFailed,
      .filterFailed:
      HostError(.providerUnavailable, description)
    }
  }
}
