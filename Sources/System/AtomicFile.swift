import Glibc

/// Replaces a file's contents all at once: readers see the old file or the
/// new one, never a mixture, and a crash leaves one of the two.
package enum AtomicFile {
  /// Writes `bytes` to a temporary file beside `path`, then renames it over
  /// `path`. With `durable`, data and rename are synced to disk first.
  package static func write(_ bytes: [UInt8], to path: String, mode: mode_t, durable: Bool) throws(Errno) {
    let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    let temporary = "\(path).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    var fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard fd >= 0 else { throw Errno.current }
    do throws(Errno) {
      var offset = 0
      while offset < bytes.count {
        let written = try Syscalls.retrying {
          bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
        }
        offset += written
      }
      if durable { try Syscalls.retrying { fsync(fd) } }
      // close is never retried: on Linux the descriptor is gone even when it fails.
      let closed = close(fd)
      fd = -1
      if closed != 0 { throw Errno.current }
      try Syscalls.retrying { rename(temporary, path) }
    } catch {
      if fd >= 0 { close(fd) }
      unlink(temporary)
      throw error
    }
    if durable {
      let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      if directory >= 0 {
        fsync(directory)
        close(directory)
      }
    }
  }
}
