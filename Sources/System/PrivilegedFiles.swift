import CExtendedAttributes
import Glibc

/// What in a folder could give a process more than its user has, checked
/// from outside the sandbox that wrote it: setuid and setgid bits, file
/// capabilities (`security.capability`) and device nodes. A provider's
/// container is reachable by every process of the user (and by root's, when
/// root runs the host), outside any `nosuid` or `nodev` mount, so the host
/// disarms what a provider left there after each run, whatever way it was
/// made (the filter refuses the modes; this does not rely on it).
///
/// Nothing is followed: links are left as they are, each file is opened
/// without following a link and changed through that descriptor, so a file
/// swapped for a link meanwhile changes nothing outside the folder.
package enum PrivilegedFiles {
  /// What `disarm` did, by path relative to the folder.
  package struct Report: Equatable, Sendable {
    /// Files and folders whose setuid or setgid bits or file capabilities were removed.
    package var disarmed: [String] = []
    /// Device nodes removed.
    package var removed: [String] = []
    /// Folders that could not be looked into: deeper than `depthLimit`, or
    /// not opened; what they hold is unchecked.
    package var unchecked: [String] = []
    /// The disk space of what was walked, in bytes: each name its blocks
    /// (`st_blocks`), and at least `blockBytes`, so that empty files, folders
    /// and links count too. The runner's size-limited view of the container
    /// counts the same way (`Sources/CRunnerSandbox/sandbox_disk.c`).
    package var usedBytes: Int64 = 0

    /// Whether nothing was disarmed, removed or left unchecked.
    package var isEmpty: Bool { disarmed.isEmpty && removed.isEmpty && unchecked.isEmpty }
  }

  /// How deep `disarm` goes: one open descriptor per level.
  package static let depthLimit = 128
  /// The least a name costs in `usedBytes`.
  package static let blockBytes: Int64 = 4096

  private static let capability = "security.capability"
  /// `O_PATH` (the same value on every Linux architecture but Alpha, PA-RISC
  /// and SPARC), which Glibc's module hides behind `_GNU_SOURCE`.
  private static let pathOnly: Int32 = 0o10_000_000

  /// Removes setuid and setgid bits and file capabilities from every file
  /// and folder under `folder`, and every device node, and adds up the
  /// disk space of what is there; a missing folder holds nothing.
  package static func disarm(in folder: String) -> Report {
    var report = Report()
    let fd = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else {
      if errno != ENOENT { report.unchecked.append(".") }
      return report
    }
    walk(fd, path: "", depth: 1, &report)
    return report
  }

  /// Walks the open folder `directory` (and closes it).
  private static func walk(_ directory: Int32, path: String, depth: Int, _ report: inout Report) {
    guard let stream = fdopendir(directory) else {
      Glibc.close(directory)
      report.unchecked.append(path.isEmpty ? "." : path)
      return
    }
    defer { closedir(stream) }
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      guard name != "." && name != ".." else { continue }
      let relative = path.isEmpty ? name : path + "/" + name
      var info = stat()
      guard fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
      report.usedBytes += max(Int64(info.st_blocks) * 512, blockBytes)
      switch info.st_mode & S_IFMT {
      case S_IFDIR:
        if info.st_mode & (S_ISUID | S_ISGID) != 0, strip(directory, name, directory: true) {
          report.disarmed.append(relative)
        }
        guard depth < depthLimit, let child = openFolder(directory, name) else {
          report.unchecked.append(relative)
          continue
        }
        walk(child, path: relative, depth: depth + 1, &report)
      case S_IFREG:
        let capable = lgetxattr("/proc/self/fd/\(directory)/\(name)", capability, nil, 0) >= 0
        if info.st_mode & (S_ISUID | S_ISGID) != 0 || capable, strip(directory, name, directory: false) {
          report.disarmed.append(relative)
        }
      case S_IFCHR, S_IFBLK:
        if unlinkat(directory, name, 0) == 0 { report.removed.append(relative) } else { report.unchecked.append(relative) }
      default:
        break
      }
    }
  }

  /// Opens the folder `name` in `directory`; one its owner made unreadable
  /// (mode 0) is given back its owner's rights first, as its owner may.
  private static func openFolder(_ directory: Int32, _ name: String) -> Int32? {
    let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
    var child = openat(directory, name, flags)
    if child < 0 && errno == EACCES {
      let handle = openat(directory, name, pathOnly | O_NOFOLLOW | O_CLOEXEC)
      guard handle >= 0 else { return nil }
      var info = stat()
      if fstat(handle, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
        _ = chmod("/proc/self/fd/\(handle)", (info.st_mode & 0o7777) | S_IRWXU)
      }
      Glibc.close(handle)
      child = openat(directory, name, flags)
    }
    return child >= 0 ? child : nil
  }

  /// Removes the setuid and setgid bits and the file capabilities of `name`
  /// in `directory`, through a descriptor of what is there now (not
  /// following a link). Returns whether something was removed.
  private static func strip(_ directory: Int32, _ name: String, directory isFolder: Bool) -> Bool {
    let handle = openat(directory, name, pathOnly | O_NOFOLLOW | O_CLOEXEC)
    guard handle >= 0 else { return false }
    defer { Glibc.close(handle) }
    var info = stat()
    guard fstat(handle, &info) == 0 else { return false }
    let kind = info.st_mode & S_IFMT
    guard kind == (isFolder ? S_IFDIR : S_IFREG) else { return false }
    let own = "/proc/self/fd/\(handle)"
    var changed = false
    if info.st_mode & (S_ISUID | S_ISGID) != 0, chmod(own, info.st_mode & 0o1777) == 0 { changed = true }
    if !isFolder && removexattr(own, capability) == 0 { changed = true }
    return changed
  }
}
