import Glibc

/// What `stat` says about a file: enough to key a cache and to judge who
/// could have written it.
package struct FileStatus: Equatable, Sendable {
  package var size: Int64
  /// Modification time in nanoseconds since the epoch.
  package var modified: Int64
  package var mode: UInt32
  package var owner: UInt32
  package var inode: UInt64
  package var device: UInt64

  package var isDirectory: Bool { mode & S_IFMT == S_IFDIR }
  package var isRegularFile: Bool { mode & S_IFMT == S_IFREG }
  package var isSocket: Bool { mode & S_IFMT == S_IFSOCK }
  /// Group or others may write it.
  package var isWritableByOthers: Bool { mode & 0o022 != 0 }

  /// `stat` of `path`, following symbolic links; a relative path is taken
  /// relative to the open folder `folder` (`Directory.open`), which spares
  /// the kernel walking the whole path again for each file of a bundle, or
  /// to the working directory without one.
  /// With `followingLinks` false, a symbolic link is described itself.
  package init(path: String, relativeTo folder: FileDescriptor? = nil, followingLinks: Bool = true) throws(Errno) {
    var info = stat()
    let base = folder?.rawValue ?? AT_FDCWD
    try Syscalls.retrying { fstatat(base, path, &info, followingLinks ? 0 : AT_SYMLINK_NOFOLLOW) }
    size = Int64(info.st_size)
    modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    mode = info.st_mode
    owner = info.st_uid
    inode = UInt64(info.st_ino)
    device = UInt64(info.st_dev)
  }

  package init(size: Int64, modified: Int64, mode: UInt32, owner: UInt32, inode: UInt64, device: UInt64) {
    self.size = size
    self.modified = modified
    self.mode = mode
    self.owner = owner
    self.inode = inode
    self.device = device
  }

  /// The effective user id of this process.
  package static var currentUser: UInt32 { geteuid() }
}
