import Glibc
import Synchronization

/// Tells whether anything changed in a set of files and folders since they
/// were watched (Linux inotify): one non-blocking `read` instead of a `stat`
/// of every path. Conservative: any event on any watch, and a queue that
/// overflowed, count as a change; the caller then looks at the files again.
///
/// A path is watched itself (a file's contents and attributes, through any of
/// its links) and through its folder (the path made, removed, renamed or
/// replaced); a path that does not exist yet is watched through the nearest
/// folder above it that does, so its creation is seen too.
package final class FileWatch: @unchecked Sendable {
  private let fd: FileDescriptor
  /// Set once a change was seen; a watch that saw one stays changed.
  private let changed = Mutex(false)

  /// What each watch reports: anything that can change a `FileStatus` or a folder's entries.
  private static let events: UInt32 = UInt32(
    IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_DELETE_SELF
      | IN_MOVE_SELF)

  /// Watches `paths` (see above).
  /// - Throws: `Errno` when inotify is not available or a watch cannot be
  ///   added (too many watches); the caller then falls back to `stat`.
  package init(paths: [String]) throws(Errno) {
    fd = FileDescriptor(rawValue: try Syscalls.retrying { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) })
    var watched = Set<String>()
    do {
      for path in paths {
        for target in Self.targets(for: path) where watched.insert(target).inserted {
          _ = try Syscalls.retrying { inotify_add_watch(fd.rawValue, target, Self.events) }
        }
      }
    } catch {
      Syscalls.close(fd)
      throw error
    }
  }

  deinit { Syscalls.close(fd) }

  /// The inotify descriptor: readable once anything watched changed (and
  /// until `hasChanged` reads the change), to wait on beside other descriptors.
  package var descriptor: FileDescriptor { fd }

  /// Whether `hasChanged` has read a change from this watch: after a `poll`
  /// that found `descriptor` with nothing to read, this false means nothing
  /// changed before that `poll`, whoever read the descriptor meanwhile.
  package var hasSeenChange: Bool { changed.withLock { $0 } }

  /// Whether anything watched changed since the watch began.
  package var hasChanged: Bool {
    changed.withLock { changed in
      guard !changed else { return true }
      // On the stack: asked once per request, it mostly finds nothing to read.
      let count = withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 8) {
        Glibc.read(fd.rawValue, $0.baseAddress, $0.count)
      }
      // Nothing to read (EAGAIN) is the only answer that means "unchanged".
      if count < 0 && errno == EAGAIN { return false }
      changed = true
      return true
    }
  }

  /// Waits until anything watched changes, `other` becomes readable, or
  /// `deadline` passes, without polling (the inotify descriptor wakes it);
  /// returns whether something changed.
  package func waitForChange(until deadline: ContinuousClock.Instant, orReadable other: FileDescriptor? = nil) -> Bool {
    while !hasChanged {
      let remaining = deadline - .now
      guard remaining > .zero else { return false }
      guard let other else {
        guard (try? Syscalls.waitReadable(fd, timeout: remaining)) != nil else { return hasChanged }
        continue
      }
      guard let ready = try? Syscalls.poll([(fd, .readable), (other, .readable)], timeout: remaining) else {
        return hasChanged
      }
      if !ready[1].isEmpty { return hasChanged }
    }
    return true
  }

  /// The path itself when it exists, and its folder, or the nearest
  /// existing folder above a path that does not exist.
  private static func targets(for path: String) -> [String] {
    var targets: [String] = []
    if access(path, F_OK) == 0 { targets.append(path) }
    var folder = path
    while true {
      guard let slash = folder.lastIndex(of: "/") else { return targets }
      folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
      if access(folder, F_OK) == 0 { return targets + [folder] }
      if folder == "/" { return targets }
    }
  }
}
