import Foundation
import System
import TestSupport
import Testing

/// `FileWatch` sees every change that could change a `FileStatus` of a
/// watched path or the entries of its folder, and nothing else counts as one.
@Suite struct FileWatchTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    /// What happens in the folder after the watch began (nil: nothing).
    var change: (@Sendable (String) throws -> Void)?
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "nothing happens: unchanged", change: nil),
    Case(name: "a watched file is rewritten") {
      try "other".write(toFile: $0 + "/watched/file", atomically: false, encoding: .utf8)
    },
    Case(name: "a watched file is replaced by a rename") {
      try "new".write(toFile: $0 + "/watched/file.tmp", atomically: false, encoding: .utf8)
      _ = rename($0 + "/watched/file.tmp", $0 + "/watched/file")
    },
    Case(name: "a watched file's mode changes") { _ = chmod($0 + "/watched/file", 0o600) },
    Case(name: "a watched file is removed") { _ = unlink($0 + "/watched/file") },
    Case(name: "a missing path is created, with the folders above it") {
      try FileManager.default.createDirectory(atPath: $0 + "/missing/deeper", withIntermediateDirectories: true)
    },
    Case(name: "an entry is added to a watched folder") {
      try "x".write(toFile: $0 + "/watched/added", atomically: false, encoding: .utf8)
    },
  ]

  @Test(arguments: cases) func seesWhatChanges(_ test: Case) throws {
    let folder = try TemporaryDirectory()
    let file = try folder.write("watched/file", "contents")
    let watch = try FileWatch(paths: [file, folder.path + "/watched", folder.path + "/missing/deeper/file"])
    #expect(!watch.hasChanged)
    try test.change?(folder.path)
    #expect(watch.hasChanged == (test.change != nil))
    if test.change != nil { #expect(watch.hasChanged, "a watch that saw a change stays changed") }
  }
}
