import Foundation
import Glibc
import System
import TestSupport
import Testing

/// A listening socket's file: mode 0600, without touching the process's
/// umask, which other threads share.
@Suite struct UnixSocketTests {
  @Test func theSocketFileIsTheOwnersOnlyAndTheUmaskIsLeftAlone() throws {
    let folder = try TemporaryDirectory()
    let before = try Self.umask()
    let fd = try UnixSocket.listen(at: folder.path + "/socket")
    defer { Syscalls.close(fd) }
    let status = try FileStatus(path: folder.path + "/socket")
    #expect(status.isSocket)
    #expect(status.mode & 0o777 == 0o600 & ~before)
    #expect(try Self.umask() == before)
  }

  /// The socket appears at its path only once it listens (bound under a name
  /// of its own, then linked): a path that exists is refused as `bind` would
  /// refuse it, and no other file is left in the folder either way.
  @Test func aPathInUseIsRefusedAndOnlyTheSocketIsLeft() throws {
    let folder = try TemporaryDirectory()
    let fd = try UnixSocket.listen(at: folder.path + "/socket")
    defer { Syscalls.close(fd) }
    #expect(throws: Errno(rawValue: EADDRINUSE)) { try UnixSocket.listen(at: folder.path + "/socket") }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["socket"])
    let client = try UnixSocket.connect(to: folder.path + "/socket")
    Syscalls.close(client)
  }

  /// A path longer than a socket address holds (108 bytes: a deep
  /// XDG_RUNTIME_DIR or TMPDIR) is listened at and connected to through its
  /// folder; the peer is who listened, and the file is where it was asked for.
  @Test(arguments: [100, 108, 200, 400])
  func aLongPathIsListenedAtAndConnectedTo(length: Int) throws {
    let folder = try TemporaryDirectory()
    var deep = folder.path
    while deep.utf8.count + 8 < length { deep += "/" + String(repeating: "d", count: min(40, length - deep.utf8.count - 8)) }
    try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
    let path = deep + "/socket"
    let fd = try UnixSocket.listen(at: path)
    defer { Syscalls.close(fd) }
    #expect(try FileStatus(path: path).isSocket)
    let client = try UnixSocket.connect(to: path)
    defer { Syscalls.close(client) }
    let accepted = try UnixSocket.accept(fd)
    defer { Syscalls.close(accepted) }
    #expect(try UnixSocket.peerCredentials(accepted).pid == getpid())
    #expect(throws: Errno(rawValue: EADDRINUSE)) { try UnixSocket.listen(at: path) }
  }

  /// The process's umask, read without setting it (`/proc/self/status`).
  private static func umask() throws -> UInt32 {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
    return try #require(UInt32(line.dropFirst(6).trimmingWhitespace(), radix: 8))
  }
}
