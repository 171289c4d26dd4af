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

  /// The entries of the folder at `path` whose names end with `suffix`
  /// (and are longer than it), each as `path + "/" + name`, sorted by the
  /// bytes of their names (`memcmp` order, which is String order for
  /// ASCII names). Names are matched, gathered and sorted as bytes, and
  /// each path is made as one String: a String per name, sorted by
  /// String comparison, cost the registry more than reading the folder.
  package static func paths(in path: String, endingWith suffix: String) throws(Errno) -> [String] {
    guard let directory = opendir(path) else { throw Errno.current }
    defer { closedir(directory) }
    let tail = Array(suffix.utf8)
    // Every name that matches, one after the other, and where each begins and ends.
    var names: [UInt8] = []
    var ranges: [Range<Int>] = []
    while let entry = readdir(directory) {
      withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        let length = strnlen(bytes.baseAddress!.assumingMemoryBound(to: CChar.self), bytes.count)
        guard length > tail.count, memcmp(bytes.baseAddress! + (length - tail.count), tail, tail.count) == 0 else { return }
        ranges.append(names.count..<names.count + length)
        names.append(contentsOf: bytes[..<length])
      }
    }
    let prefix = Array((path + "/").utf8)
    return names.withUnsafeBufferPointer { buffer in
      let base = buffer.baseAddress
      ranges.sort { left, right in
        let order = memcmp(base! + left.lowerBound, base! + right.lowerBound, Swift.min(left.count, right.count))
        return order != 0 ? order < 0 : left.count < right.count
      }
      return ranges.map { range in
        String(unsafeUninitializedCapacity: prefix.count + range.count) { target in
          let copied = target.initialize(fromContentsOf: prefix)
          return copied + UnsafeMutableBufferPointer(rebasing: target[copied...]).initialize(fromContentsOf: buffer[range])
        }
      }
    }
  }

  /// Opens the folder at `path` for `FileStatus(path:relativeTo:)`; the
  /// caller closes it with `close`.
  package static func open(_ path: String) throws(Errno) -> FileDescriptor {
    FileDescriptor(rawValue: try Syscalls.retrying { Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) })
  }

  package static func close(_ fd: FileDescriptor) { Syscalls.close(fd) }

  /// Makes the folder `path` and the parents it lacks, each with `mode`
  /// (less the umask), as `mkdir -p`; a folder that exists is left as it is.
  /// - Throws: `ENOTDIR` where something other than a folder is in the way.
  package static func create(_ path: String, mode: mode_t) throws(Errno) {
    var partial = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
      partial += "/" + component
      do { try Syscalls.retrying { mkdir(partial, mode) } } catch {
        guard error == Errno(rawValue: EEXIST) else { throw error }
        guard (try? FileStatus(path: partial))?.isDirectory == true else { throw Errno(rawValue: ENOTDIR) }
      }
    }
  }

  /// Reads the first `count` bytes of `path` (fewer if the file is shorter),
  /// into an array that is neither zeroed first nor copied after: for a
  /// registry cache of 10,000 bundles, both cost more than reading it.
  package static func readPrefix(of path: String, count: Int) throws(Errno) -> [UInt8] {
    let fd = try Syscalls.open(path, .readOnly)
    defer { Syscalls.close(fd) }
    var failure: Errno?
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      while initialized < count {
        let rest = UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[initialized...]))
        let read: Int
        do throws(Errno) {
          read = try Syscalls.read(fd, into: rest)
        } catch {
          failure = error
          return
        }
        guard read > 0 else { return }
        initialized += read
      }
    }
    if let failure { throw failure }
    return bytes
  }
}
