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
    return parent(inStatus: bytes)
  }

  /// The number of the `PPid:` line of `status`, the bytes of a
  /// `/proc/<pid>/status`; nil without one. Read as bytes, line by line up
  /// to that line (the seventh): decoding the file as a `String` and
  /// splitting all of it into lines took 4.1 million instructions of a
  /// connection's admission by the service, for a client seven processes
  /// below init (callgrind; the whole lineage now takes 33,000).
  package static func parent(inStatus status: [UInt8]) -> pid_t? {
    let key = parentKey
    var line = 0
    while line < status.count {
      if status.count - line >= key.count && key.indices.allSatisfy({ status[line + $0] == key[$0] }) {
        return number(in: status, from: line + key.count)
      }
      guard let end = status[line...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
      line = end + 1
    }
    return nil
  }

  private static let parentKey: [UInt8] = Array("PPid:".utf8)

  /// The decimal number after blanks at `start`, alone on the rest of its line.
  private static func number(in bytes: [UInt8], from start: Int) -> pid_t? {
    var index = start
    while index < bytes.count && (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")) { index += 1 }
    var value = 0
    var digits = 0
    while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"), digits < 10 {
      value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
      digits += 1
      index += 1
    }
    guard digits > 0, index == bytes.count || bytes[index] == UInt8(ascii: "\n") else { return nil }
    return pid_t(exactly: value)
  }
}
