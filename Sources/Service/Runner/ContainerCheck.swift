import RunnerProtocol
import System

/// What the host checks in a provider's container from outside, before a
/// runner starts and after it ends (`PrivilegedFiles`): nothing in it may
/// raise another process's rights, and it may not hold more than the disk
/// limit. Both are told in one line on stderr, naming the files, the folder
/// and the limit.
struct ContainerCheck {
  let provider: String
  let container: String
  /// `TRANSLATION_HOST_LIMIT_DISK_MIB` in bytes; 0 for none.
  let diskLimitBytes: Int64

  init(provider: String, container: String, limits: SandboxPolicy.Limits) {
    self.provider = provider
    self.container = container
    diskLimitBytes = Int64(clamping: limits.diskMiB << 20)
  }

  /// Disarms the container and tells what was found; returns whether it holds more than the limit.
  @discardableResult
  func run() -> Bool {
    let report = PrivilegedFiles.disarm(in: container)
    if !report.isEmpty { warn(about: report) }
    let over = diskLimitBytes > 0 && report.usedBytes > diskLimitBytes
    if over {
      Self.write(
        "translation-host: warning: provider '\(provider)' holds \(Self.mebibytes(report.usedBytes)) in its container "
          + "\(container), over its limit of \(Self.mebibytes(diskLimitBytes)) (TRANSLATION_HOST_LIMIT_DISK_MIB); "
          + "it is not started again until that folder holds less")
    } else if diskLimitBytes > 0 && diskLimitBytes - report.usedBytes < Self.fullSlackBytes {
      // Its size-limited view answered ENOSPC (or is about to): the provider's own error says only that.
      Self.write(
        "translation-host: warning: provider '\(provider)' filled its container \(container) up to its limit of "
          + "\(Self.mebibytes(diskLimitBytes)) (TRANSLATION_HOST_LIMIT_DISK_MIB): its writes past it fail with "
          + "'No space left on device'; remove what it no longer needs from that folder, or raise the limit")
    }
    return over
  }

  /// Before a runner starts; returns what the container holds, or nil
  /// where part of it could not be walked (the runner measures it then).
  /// - Throws: `SandboxError.containerOverLimit` when the container holds more than the limit.
  func beforeStart() throws(SandboxError) -> UInt64? {
    let report = PrivilegedFiles.disarm(in: container)
    if !report.isEmpty { warn(about: report) }
    if diskLimitBytes > 0 && report.usedBytes > diskLimitBytes {
      throw .containerOverLimit(container, usedMiB: UInt64(report.usedBytes >> 20), limitMiB: UInt64(diskLimitBytes >> 20))
    }
    return report.unchecked.isEmpty ? UInt64(max(report.usedBytes, 0)) : nil
  }

  private func warn(about report: PrivilegedFiles.Report) {
    var parts: [String] = []
    if !report.disarmed.isEmpty { parts.append("setuid, setgid or capability bits removed from " + list(report.disarmed)) }
    if !report.removed.isEmpty { parts.append("device nodes removed: " + list(report.removed)) }
    if !report.unchecked.isEmpty { parts.append("not checked: " + list(report.unchecked)) }
    Self.write(
      "translation-host: warning: provider '\(provider)' left privileged files in its container \(container): "
        + parts.joined(separator: "; ") + "; it is not to be trusted")
  }

  private func list(_ paths: [String]) -> String {
    paths.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (paths.count > 5 ? " and \(paths.count - 5) more" : "")
  }

  /// Within this of the limit a container is full: the size-limited view
  /// refuses a write that would leave less than two blocks free.
  static let fullSlackBytes: Int64 = 1 << 20

  private static func mebibytes(_ bytes: Int64) -> String { "\((bytes + (1 << 20) - 1) >> 20) MiB" }

  /// One line on stderr, its control characters escaped (names are the provider's).
  private static func write(_ line: String) {
    try? Syscalls.writeAll(.standardError, line.escapingControlCharacters(keeping: []) + "\n")
  }
}
