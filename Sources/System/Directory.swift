import Glibc

/// Directory listing through `opendir`/`readdir`: names only, without `.`
/// and `..`, unsorted. Cheaper than FileManager for the registry's hot path.
package enum Directory {
  package static func names(at path: String) throws(Errno) -> [String] {
    guard let directory = opendir(path) else { throw Errno.current }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// Opens the folder at `path` for `FileStatus(path:relativeTo:)`; the
  /// caller closes it with `close`.
  package static func open(_ path: String) throws(Errno) -> FileDescriptor {
    FileDescriptor(rawValue: try Syscalls.retrying { Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) })
  }

  package static func close(_ fd: FileDescriptor) { Syscalls.close(fd) }

  /// Reads the first `count` bytes of `path` (fewer if the file is shorter).
  package static func readPrefix(of path: String, count: Int) throws(Errno) -> [UInt8] {
    let fd = try Syscalls.open(path, .readOnly)
    defer { Syscalls.close(fd) }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let read = try bytes.withUnsafeMutableBytes { buffer in
        Result { () throws(Errno) in try Syscalls.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])) }
      }.get()
      guard read > 0 else { break }
      filled += read
    }
    return Array(bytes.prefix(filled))
  }
}
