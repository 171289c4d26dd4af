import Glibc

/// An exclusive `flock` on a lock file, held for the duration of a closure,
/// so that read-modify-write cycles of several processes do not interleave.
package enum FileLock {
  package static func withLock<T>(at path: String, _ body: () throws -> T) throws -> T {
    let fd = FileDescriptor(rawValue: try Syscalls.retrying { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) })
    defer { Syscalls.close(fd) }
    try Syscalls.retrying { flock(fd.rawValue, LOCK_EX) }
    defer { flock(fd.rawValue, LOCK_UN) }
    return try body()
  }
}
