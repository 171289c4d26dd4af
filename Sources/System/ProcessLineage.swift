import Glibc

/// Who started a process, as `/proc/<pid>/status` says (its `PPid:` line).
///
/// The service uses it to tell its own runners, and whatever they start,
/// from the user's other processes: the kernel's peer credentials give a
/// connection's pid, and every runner is a child of the service. The pids
/// are those of the reader's PID namespace, so runners that put their
/// provider in a namespace of its own are still seen from the service.
package enum ProcessLineage {
  /// The most parents followed; real chains are a few dozen long.
  static let maximumDepth = 4096

  /// Whether `pid` is `ancestor` or was started by it, directly or through
  /// other processes; nil when the chain cannot be read to its end (a
  /// process in it ended while it was being read).
  package static func descends(_ pid: pid_t, from ancestor: pid_t) -> Bool? {
    var current = pid
    for _ in 0..<maximumDepth {
      if current == ancestor { return true }
      // 0: the kernel's own; 1: init, whose parent is 0. Neither has the service above it.
      if current <= 1 { return false }
      guard let parent = parent(of: current) else { return nil }
      current = parent
    }
    return nil
  }

  /// The parent of `pid`, or nil when it cannot be read (no such process).
  package static func parent(of pid: pid_t) -> pid_t? {
    guard let bytes = try? Directory.readPrefix(of: "/proc/\(pid)/status", count: 4096) else { return nil }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("PPid:") {
      return pid_t(line.dropFirst("PPid:".count).trimmingWhitespace())
    }
    return nil
  }
}
