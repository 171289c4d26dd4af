import Glibc
import System
import Testing

/// The registry cache stores each file's `stat` in `FileStatus`'s fixed
/// binary form and compares what the kernel says now with what it read back.
@Suite struct FileStatusTests {
  static let statuses: [FileStatus] = [
    FileStatus(size: 0, modified: 0, mode: 0, owner: 0, inode: 0, device: 0),
    FileStatus(size: 449, modified: 1_796_119_295_890_213_908, mode: 0o100644, owner: 1000, inode: 5_357_700, device: 65024),
    FileStatus(size: .max, modified: .min, mode: .max, owner: .max, inode: .max, device: .max),
    FileStatus(size: -1, modified: -1_000_000_000, mode: 0o40755, owner: 65534, inode: 1 << 63, device: 1 << 40),
  ]

  @Test(arguments: statuses)
  func theBinaryFormReadsBackAsWritten(_ status: FileStatus) throws {
    var bytes: [UInt8] = [0xAA]
    status.encode(into: &bytes)
    #expect(bytes.count == 1 + FileStatus.encodedSize)
    #expect(FileStatus(encoded: bytes[1...]) == status)
    #expect(FileStatus(encoded: bytes[1..<bytes.count - 1]) == nil)
  }

  @Test func aPathInBytesIsStattedRelativeToItsFolder() throws {
    let folder = try Directory.open("/usr")
    defer { Directory.close(folder) }
    #expect(try FileStatus(nulTerminatedPath: Array("bin\0".utf8), relativeTo: folder) == FileStatus(path: "/usr/bin"))
    #expect(throws: Errno.self) { try FileStatus(nulTerminatedPath: Array("no such file\0".utf8), relativeTo: folder) }
  }
}
