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

  /// Opens the folder at `path` for `FileStatus(path:relativeTo:)`.
  package static func open(_ path: String) throws(Errno) -> Int32 {
    let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw Errno.current }
    return fd
  }

  package static func close(_ fd: Int32) { _ = Glibc.close(fd) }

  /// Reads the first `count` bytes of `path` (fewer if the file is shorter).
  package static func readPrefix(of path: String, count: Int) throws(Errno) -> [UInt8] {
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw Errno.current }
    defer { Glibc.close(fd) }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let read = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, count - filled) }
      if read < 0 && errno == EINTR { continue }
      guard read >= 0 else { throw Errno.current }
      guard read > 0 else { break }
      filled += read
    }
    return Array(bytes.prefix(filled))
  }
}
