import Foundation
import Glibc
import System
import TestSupport
import Testing

/// The registry cache stores each file's `stat` in `FileStatus`'s fixed
/// binary form and compares what the kernel says now with what it read back.
@Suite struct FileStatusTests {
  static let statuses: [FileStatus] = [
    FileStatus(size: 0, modified: 0, changed: 0, mode: 0, owner: 0, inode: 0, device: 0),
    FileStatus(
      size: 449, modified: 1_796_119_295_890_213_908, changed: 1_796_119_301_000_000_001, mode: 0o100644, owner: 1000,
      inode: 5_357_700, device: 65024),
    FileStatus(size: .max, modified: .min, changed: .max, mode: .max, owner: .max, inode: .max, device: .max),
    FileStatus(
      size: -1, modified: -1_000_000_000, changed: .min, mode: 0o40755, owner: 65534, inode: 1 << 63, device: 1 << 40),
  ]

  @Test(arguments: statuses)
  func theBinaryFormReadsBackAsWritten(_ status: FileStatus) throws {
    var bytes: [UInt8] = [0xAA]
    status.encode(into: &bytes)
    #expect(bytes.count == 1 + FileStatus.encodedSize)
    #expect(FileStatus(encoded: bytes[1...]) == status)
    #expect(FileStatus(encoded: bytes[1..<bytes.count - 1]) == nil)
  }

  /// A rewrite that restores the size and the modification time still
  /// changes the status: the change time cannot be set back.
  @Test func aRewriteWithItsTimesRestoredChangesTheStatus() throws {
    let folder = try TemporaryDirectory()
    let path = try folder.write("file", "same size")
    let before = try FileStatus(path: path)
    try waitForChangeTimeAfter(before.changed, in: folder.path)
    try "SAME SIZE".write(toFile: path, atomically: false, encoding: .utf8)
    var times = [Int64](repeating: before.modified, count: 2).map {
      timespec(tv_sec: Int($0 / 1_000_000_000), tv_nsec: Int($0 % 1_000_000_000))
    }
    #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    let after = try FileStatus(path: path)
    #expect(after.size == before.size && after.modified == before.modified && after.inode == before.inode)
    #expect(after.changed > before.changed)
    #expect(after != before)
  }

  @Test func aPathInBytesIsStattedRelativeToItsFolder() throws {
    let folder = try Directory.open("/usr")
    defer { Directory.close(folder) }
    #expect(try FileStatus(nulTerminatedPath: Array("bin\0".utf8), relativeTo: folder) == FileStatus(path: "/usr/bin"))
    #expect(throws: Errno.self) { try FileStatus(nulTerminatedPath: Array("no such file\0".utf8), relativeTo: folder) }
  }
}
