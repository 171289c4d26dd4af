import Glibc

/// Replaces a file's contents all at once: readers see the old file or the
/// new one, never a mixture, and a crash leaves one of the two.
package enum AtomicFile {
  /// Writes `bytes` to a temporary file beside `path`, then renames it over
  /// `path`. With `durable`, data and rename are synced to disk first.
  package static func write(_ bytes: [UInt8], to path: String, mode: mode_t, durable: Bool) throws(Errno) {
    let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    let temporary = "\(path).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    let fd = FileDescriptor(rawValue: try Syscalls.retrying { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode) })
    var isOpen = true
    do throws(Errno) {
      try Syscalls.writeAll(fd, bytes)
      if durable { try Syscalls.retrying { fsync(fd.rawValue) } }
      // close is never retried: on Linux the descriptor is gone even when it fails.
      isOpen = false
      if Glibc.close(fd.rawValue) != 0 { throw Errno.current }
      try Syscalls.rename(temporary, to: path)
    } catch {
      if isOpen { Syscalls.close(fd) }
      unlink(temporary)
      throw error
    }
    if durable, let directory = try? Directory.open(folder) {
      fsync(directory.rawValue)
      Syscalls.close(directory)
    }
  }
}
