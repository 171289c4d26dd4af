import Foundation
import TestSupport
import Testing

@testable import ApertiumSupport

/// Which library files the engine loads into Apertium's stages.
@Suite struct ApertiumStageLibraryTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    /// The folder, under the test's, that holds the library (nil: none is written).
    let folder: String
    let mode: Int?
    let isLoaded: Bool
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "the bundle's own", folder: "Apertium.translationprovider", mode: 0o755, isLoaded: true),
    Case(name: "read-only", folder: "Apertium.translationprovider", mode: 0o444, isLoaded: true),
    Case(name: "missing", folder: "Apertium.translationprovider", mode: nil, isLoaded: false),
    Case(name: "others may write it", folder: "Apertium.translationprovider", mode: 0o757, isLoaded: false),
    Case(name: "the group may write it", folder: "Apertium.translationprovider", mode: 0o775, isLoaded: false),
    // LD_PRELOAD splits its list at blanks and colons.
    Case(name: "a blank in its path", folder: "My Providers/Apertium.translationprovider", mode: 0o755, isLoaded: false),
    Case(name: "a colon in its path", folder: "a:b/Apertium.translationprovider", mode: 0o755, isLoaded: false),
  ]

  @Test(arguments: cases) func loadsOnlyALibraryItCanNameAndNoOtherUserWrote(_ test: Case) throws {
    let home = try TemporaryDirectory()
    let folder = home.path + "/" + test.folder
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    if let mode = test.mode {
      let path = try home.write(test.folder + "/" + ApertiumStageLibrary.fileName, "")
      try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }
    let library = ApertiumStageLibrary(folder: folder)
    #expect((library != nil) == test.isLoaded)
    #expect(library.map { $0.preload(after: nil) } == (test.isLoaded ? folder + "/" + ApertiumStageLibrary.fileName : nil))
  }

  @Test func goesBeforeWhatThePreloadListHeld() throws {
    let home = try TemporaryDirectory()
    let path = try home.write(ApertiumStageLibrary.fileName, "")
    let library = try #require(ApertiumStageLibrary(folder: home.path))
    #expect(library.preload(after: "/usr/lib/other.so") == path + " /usr/lib/other.so")
    #expect(library.preload(after: "") == path)
  }
}
