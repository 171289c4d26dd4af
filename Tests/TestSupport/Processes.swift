import FoundationEssentials
import Glibc

/// The machine's processes as `/proc` shows them, for tests that check what
/// a program left running or act on processes of their own.
package enum Processes {
  /// Whether `pid` is a process that has not ended: one that exited and
  /// waits to be reaped (a zombie) has ended.
  package static func isRunning(_ pid: pid_t) -> Bool {
    guard let stat = status(of: pid) else { return false }
    return stat.state != "Z" && stat.state != "X"
  }

  /// The arguments of `pid` (none for a kernel thread or a zombie), or nil when it is gone.
  package static func arguments(of pid: pid_t) -> [String]? {
    guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
    return data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
  }

  /// The processes running now, with their parents.
  package static func all() -> [(pid: pid_t, parent: pid_t)] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { pid_t($0) }.compactMap { pid in status(of: pid).map { (pid, $0.parent) } }
  }

  /// The running processes whose command line contains `text` (in any argument, or across two).
  package static func mentioning(_ text: String) -> [pid_t] {
    all().map(\.pid).filter { isRunning($0) && (arguments(of: $0)?.joined(separator: " ").contains(text) ?? false) }
  }

  /// The running children of `pid`.
  package static func children(of pid: pid_t) -> [pid_t] {
    all().filter { $0.parent == pid && isRunning($0.pid) }.map(\.pid)
  }

  /// The state letter and parent from `/proc/<pid>/stat`; the command name
  /// before them is in parentheses and may itself hold spaces and parentheses.
  private static func status(of pid: pid_t) -> (state: Character, parent: pid_t)? {
    guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat"),
      let close = data.lastIndex(of: UInt8(ascii: ")"))
    else { return nil }
    let fields = String(decoding: data[(close + 1)...], as: UTF8.self).split(separator: " ")
    guard fields.count > 1, let state = fields[0].first, let parent = pid_t(fields[1]) else { return nil }
    return (state, parent)
  }
}
