import Glibc

/// What `stat` says about a file: enough to key a cache and to judge who
/// could have written it.
package struct FileStatus: Equatable, Sendable {
  package var size: Int64
  /// Modification time in nanoseconds since the epoch.
  package var modified: Int64
  /// Status change time (`st_ctime`) in nanoseconds since the epoch. Unlike
  /// `modified`, no call can set it back: a file rewritten with its size
  /// and modification time restored (`touch -r`, `cp -p` over it) still
  /// changes it.
  package var changed: Int64
  package var mode: UInt32
  package var owner: UInt32
  package var inode: UInt64
  package var device: UInt64

  package var isDirectory: Bool { mode & S_IFMT == S_IFDIR }
  package var isRegularFile: Bool { mode & S_IFMT == S_IFREG }
  package var isSocket: Bool { mode & S_IFMT == S_IFSOCK }
  /// A symbolic link itself (a status read with `followingLinks` false).
  package var isSymbolicLink: Bool { mode & S_IFMT == S_IFLNK }
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
    self.init(info)
  }

  /// `stat` of the NUL-terminated path `path`, relative to the open folder
  /// `folder`, following symbolic links: the registry's form, which builds
  /// each path of a bundle in one reused buffer instead of a String per file.
  package init(nulTerminatedPath path: [UInt8], relativeTo folder: FileDescriptor) throws(Errno) {
    precondition(path.last == 0, "the path must end with a NUL byte")
    var info = stat()
    _ = try path.withUnsafeBufferPointer { bytes in
      Result { () throws(Errno) in
        try Syscalls.retrying {
          bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) { fstatat(folder.rawValue, $0, &info, 0) }
        }
      }
    }.get()
    self.init(info)
  }

  private init(_ info: stat) {
    size = Int64(info.st_size)
    modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    mode = info.st_mode
    owner = info.st_uid
    inode = UInt64(info.st_ino)
    device = UInt64(info.st_dev)
  }

  package init(
    size: Int64, modified: Int64, changed: Int64, mode: UInt32, owner: UInt32, inode: UInt64, device: UInt64
  ) {
    self.size = size
    self.modified = modified
    self.changed = changed
    self.mode = mode
    self.owner = owner
    self.inode = inode
    self.device = device
  }

  /// The size of the fixed binary form (`encode(into:)`).
  package static let encodedSize = 48

  /// Appends the fixed binary form: size, modification time, status change
  /// time, mode, owner, inode and device as little-endian integers, `encodedSize` bytes.
  package func encode(into bytes: inout [UInt8]) {
    Swift.withUnsafeBytes(of: size.littleEndian) { bytes.append(contentsOf: $0) }
    Swift.withUnsafeBytes(of: modified.littleEndian) { bytes.append(contentsOf: $0) }
    Swift.withUnsafeBytes(of: changed.littleEndian) { bytes.append(contentsOf: $0) }
    Swift.withUnsafeBytes(of: mode.littleEndian) { bytes.append(contentsOf: $0) }
    Swift.withUnsafeBytes(of: owner.littleEndian) { bytes.append(contentsOf: $0) }
    Swift.withUnsafeBytes(of: inode.littleEndian) { bytes.append(contentsOf: $0) }
    Swift.withUnsafeBytes(of: device.littleEndian) { bytes.append(contentsOf: $0) }
  }

  /// The status `encode(into:)` wrote at the start of `bytes`, or nil when
  /// they are fewer than `encodedSize`.
  package init?(encoded bytes: ArraySlice<UInt8>) {
    guard bytes.count >= Self.encodedSize else { return nil }
    (size, modified, changed, mode, owner, inode, device) = bytes.withUnsafeBytes { raw in
      (
        Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: Int64.self)),
        Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: Int64.self)),
        Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 16, as: Int64.self)),
        UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 24, as: UInt32.self)),
        UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 28, as: UInt32.self)),
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 32, as: UInt64.self)),
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 40, as: UInt64.self))
      )
    }
  }

  /// The effective user id of this process.
  package static var currentUser: UInt32 { geteuid() }
}
