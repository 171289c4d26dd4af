import Foundation
import Glibc
import System
import TestSupport
import Testing

/// `PrivilegedFiles.disarm`: what a folder a sandbox wrote holds, and what is
/// left of it afterwards. Nothing outside the folder is touched.
@Suite struct PrivilegedFilesTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let testDescription: String
    /// Makes the entries in the folder (its path); `outside` is a file beside it.
    let make: @Sendable (_ folder: String, _ outside: String) -> Void
    let disarmed: [String]
    let removed: [String]
    let unchecked: [String]
  }

  static let cases: [Case] = [
    Case(
      testDescription: "a setuid program", make: { folder, _ in plant(folder + "/tool", mode: 0o4755) },
      disarmed: ["tool"], removed: [], unchecked: []),
    Case(
      testDescription: "a setgid program in a subfolder",
      make: { folder, _ in
        mkdir(folder + "/bin", 0o755)
        plant(folder + "/bin/tool", mode: 0o2755)
      }, disarmed: ["bin/tool"], removed: [], unchecked: []),
    Case(
      testDescription: "a setgid folder",
      make: { folder, _ in
        mkdir(folder + "/shared", 0o755)
        chmod(folder + "/shared", 0o2775)
      }, disarmed: ["shared"], removed: [], unchecked: []),
    Case(
      testDescription: "a link to a setuid program outside: not followed",
      make: { folder, outside in
        plant(outside, mode: 0o4755)
        symlink(outside, folder + "/link")
      }, disarmed: [], removed: [], unchecked: []),
    Case(
      testDescription: "a pipe and plain files: left as they are",
      make: { folder, _ in
        mkfifo(folder + "/pipe", 0o600)
        plant(folder + "/notes", mode: 0o644)
      }, disarmed: [], removed: [], unchecked: []),
    Case(
      testDescription: "a setuid program in a folder its owner made unreadable",
      make: { folder, _ in
        mkdir(folder + "/closed", 0o755)
        plant(folder + "/closed/tool", mode: 0o4755)
        chmod(folder + "/closed", 0)
      }, disarmed: ["closed/tool"], removed: [], unchecked: []),
    Case(
      testDescription: "folders nested past the depth limit",
      make: { folder, _ in
        var path = folder
        for _ in 0..<PrivilegedFiles.depthLimit {
          path += "/d"
          mkdir(path, 0o755)
        }
      }, disarmed: [], removed: [],
      unchecked: [Array(repeating: "d", count: PrivilegedFiles.depthLimit).joined(separator: "/")]),
  ]

  static func plant(_ path: String, mode: mode_t) {
    _ = FileManager.default.createFile(atPath: path, contents: Data("#!/bin/sh\nid\n".utf8))
    chmod(path, mode)
  }

  @Test(arguments: cases) func disarmsWhatCouldRaiseRights(_ test: Case) throws {
    let root = try TemporaryDirectory()
    let folder = root.path + "/container"
    let outside = root.path + "/outside"
    #expect(mkdir(folder, 0o700) == 0)
    test.make(folder, outside)
    let report = PrivilegedFiles.disarm(in: folder)
    #expect(report.disarmed.sorted() == test.disarmed.sorted())
    #expect(report.removed == test.removed)
    #expect(report.unchecked == test.unchecked)
    for path in test.disarmed {
      var status = stat()
      #expect(lstat(folder + "/" + path, &status) == 0 && status.st_mode & (S_ISUID | S_ISGID) == 0, "\(path)")
    }
    var status = stat()
    if lstat(outside, &status) == 0 { #expect(status.st_mode & 0o7777 == 0o4755, "the file outside was changed") }
    #expect(report.usedBytes > 0 || test.disarmed.isEmpty)
    #expect(PrivilegedFiles.disarm(in: folder).disarmed == [], "a second walk finds nothing left")
  }

  /// A device node (root only may make one) is removed.
  @Test(.enabled(if: getuid() == 0)) func aDeviceIsRemoved() throws {
    let root = try TemporaryDirectory()
    #expect(mknod(root.path + "/null", S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0)
    let report = PrivilegedFiles.disarm(in: root.path)
    #expect(report.removed == ["null"])
    #expect(access(root.path + "/null", F_OK) != 0)
  }
}
