import FoundationEssentials
import Glibc
import System

/// What `/proc` tells of a process and of the processes below it, as the
/// benchmark's own reader sees them. A process that ended while being read
/// reads as nothing (0, empty), not as an error: figures are sampled.
enum ProcessTree {
  /// The children of `pid`, from every thread's `children` file (a child
  /// is listed under the thread that started it).
  static func children(of pid: pid_t) -> [pid_t] {
    ((try? Directory.names(at: "/proc/\(pid)/task")) ?? []).flatMap { task in
      text("/proc/\(pid)/task/\(task)/children").split(separator: " ").compactMap { pid_t($0) }
    }
  }

  /// Every process below `pid`, parents before their children.
  static func descendants(of pid: pid_t) -> [pid_t] {
    var found: [pid_t] = []
    var queue = children(of: pid)
    while !queue.isEmpty {
      let next = queue.removeFirst()
      found.append(next)
      queue += children(of: next)
    }
    return found
  }

  /// A `kB` line of `/proc/<pid>/status` (`VmRSS`, `VmHWM`), in KiB; 0 when
  /// the process is gone or has no such line (a kernel thread).
  static func statusKiB(_ field: String, of pid: pid_t) -> Int {
    let line = text("/proc/\(pid)/status").split(separator: "\n").first { $0.hasPrefix(field + ":") }
    return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? 0
  }

  /// The shared objects `pid` maps (the distinct paths of `/proc/<pid>/maps`
  /// whose file name has `.so` in it, the dynamic loader included), sorted;
  /// nil when the maps cannot be read (another user's process, or one that
  /// is not dumpable, without `CAP_SYS_PTRACE`).
  static func sharedObjects(of pid: pid_t) -> [String]? {
    let maps = text("/proc/\(pid)/maps")
    guard !maps.isEmpty else { return nil }
    var paths = Set<String>()
    for line in maps.split(separator: "\n") {
      // address perms offset dev inode path: the path is what follows the fifth field.
      guard let slash = line.firstIndex(of: "/") else { continue }
      let path = String(line[slash...])
      let name = path.split(separator: "/").last ?? ""
      if name.hasSuffix(".so") || name.contains(".so.") { paths.insert(path) }
    }
    return paths.sorted()
  }

  /// The size of the file at `path` in bytes, or nil when it cannot be
  /// `stat`ed from here.
  static func fileSize(_ path: String) -> Int? {
    var status = stat()
    return stat(path, &status) == 0 ? Int(status.st_size) : nil
  }

  /// The CPU time `pid` used so far, user and system, all its threads
  /// (`/proc/<pid>/stat`, in clock ticks), in seconds; 0 when it is gone.
  static func cpuSeconds(of pid: pid_t) -> Double {
    let stat = text("/proc/\(pid)/stat")
    // The fields after the name (which may hold spaces, in parentheses): utime and stime are the 12th and 13th.
    guard let end = stat.lastIndex(of: ")") else { return 0 }
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// The time `pid`'s threads alive now have run, in nanoseconds (the first
  /// field of each `/proc/<pid>/task/<tid>/schedstat`): finer than
  /// `cpuSeconds`' clock ticks, for the CPU of one request.
  static func runNanoseconds(of pid: pid_t) -> UInt64 {
    ((try? Directory.names(at: "/proc/\(pid)/task")) ?? []).reduce(0) { total, task in
      total + (UInt64(text("/proc/\(pid)/task/\(task)/schedstat").prefix { $0 != " " }) ?? 0)
    }
  }

  /// The command name of `pid` (`/proc/<pid>/comm`, at most 15 bytes), or "" when it is gone.
  static func name(of pid: pid_t) -> String {
    String(text("/proc/\(pid)/comm").prefix { $0 != "\n" })
  }

  /// The load average over 1, 5 and 15 minutes, as `/proc/loadavg` has it
  /// now: the figures of a shared machine mean little without it.
  static func loadAverage() -> String {
    "load average " + text("/proc/loadavg").split(separator: " ").prefix(3).joined(separator: " ")
  }

  /// The whole of a `/proc` file, or "" when it cannot be read. (Not
  /// `String(contentsOfFile:)`: it stops after the first 4 KiB of a
  /// `/proc/<pid>/maps`, whose size reads as 0.)
  private static func text(_ path: String) -> String {
    String(decoding: (try? Directory.readPrefix(of: path, count: 1 << 22)) ?? [], as: UTF8.self)
  }
}
