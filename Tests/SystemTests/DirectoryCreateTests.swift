import Foundation
import System
import TestSupport
import Testing

/// `Directory.create`, `mkdir -p`: what a folder tree looks like before, and what comes of making a path in it.
@Suite struct DirectoryCreateTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let testDescription: String
    /// Files (ending without `/`) and folders (ending with `/`) there before.
    let before: [String]
    let path: String
    /// nil when it must succeed, else the error.
    let error: Errno?
  }

  static let cases: [Case] = [
    Case(testDescription: "a new folder", before: [], path: "a", error: nil),
    Case(testDescription: "new parents", before: [], path: "a/b/c", error: nil),
    Case(testDescription: "an existing folder", before: ["a/b/"], path: "a/b", error: nil),
    Case(testDescription: "below an existing folder", before: ["a/"], path: "a/b/c", error: nil),
    Case(testDescription: "repeated and trailing slashes", before: [], path: "a//b/", error: nil),
    Case(testDescription: "a file in the way", before: ["a"], path: "a/b", error: Errno(rawValue: ENOTDIR)),
    Case(testDescription: "a file at the path", before: ["a"], path: "a", error: Errno(rawValue: ENOTDIR)),
  ]

  @Test(arguments: cases) func makesTheFolderAndItsParents(_ test: Case) throws {
    let root = try TemporaryDirectory()
    for entry in test.before {
      if entry.hasSuffix("/") {
        try FileManager.default.createDirectory(atPath: root.path + "/" + entry, withIntermediateDirectories: true)
      } else {
        _ = try root.write(entry, "")
      }
    }
    let path = root.path + "/" + test.path
    if let error = test.error {
      #expect(throws: error) { try Directory.create(path, mode: 0o755) }
    } else {
      try Directory.create(path, mode: 0o755)
      #expect(try FileStatus(path: path).isDirectory)
    }
  }
}
