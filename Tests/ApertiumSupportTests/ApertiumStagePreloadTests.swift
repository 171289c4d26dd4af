import Foundation
import TestSupport
import Testing

@testable import ApertiumSupport

/// Which libraries the engine loads into Apertium's stages.
@Suite struct ApertiumStagePreloadTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    /// Where the two libraries are written, under the test's folder, and their modes (nil: not written).
    let bundle: String
    let scanMode: Int?
    let allocatorMode: Int?
    /// Which are loaded.
    let loaded: [String]
    var testDescription: String { name }
  }

  static let scan = ApertiumStagePreload.integerScan
  static let allocator = ApertiumStagePreload.allocator

  static let cases: [Case] = [
    Case(name: "both", bundle: "Apertium.translationprovider", scanMode: 0o755, allocatorMode: 0o644, loaded: [scan, allocator]),
    Case(
      name: "read-only", bundle: "Apertium.translationprovider", scanMode: 0o444, allocatorMode: 0o444, loaded: [scan, allocator]),
    Case(
      name: "no allocator installed", bundle: "Apertium.translationprovider", scanMode: 0o755, allocatorMode: nil, loaded: [scan]),
    Case(
      name: "a bundle without the scan", bundle: "Apertium.translationprovider", scanMode: nil, allocatorMode: 0o644,
      loaded: [allocator]),
    Case(
      name: "others may write the scan", bundle: "Apertium.translationprovider", scanMode: 0o757, allocatorMode: 0o644,
      loaded: [allocator]),
    Case(
      name: "the group may write the allocator", bundle: "Apertium.translationprovider", scanMode: 0o755, allocatorMode: 0o664,
      loaded: [scan]),
    // LD_PRELOAD splits its list at blanks and colons.
    Case(
      name: "a blank in the bundle's path", bundle: "My Providers/Apertium.translationprovider", scanMode: 0o755,
      allocatorMode: 0o644, loaded: [allocator]),
    Case(
      name: "a colon in the bundle's path", bundle: "a:b/Apertium.translationprovider", scanMode: 0o755, allocatorMode: 0o644,
      loaded: [allocator]),
  ]

  @Test(arguments: cases) func loadsOnlyLibrariesItCanNameAndNoOtherUserWrote(_ test: Case) throws {
    let home = try TemporaryDirectory()
    for (name, mode) in [(test.bundle + "/" + Self.scan, test.scanMode), ("lib/" + Self.allocator, test.allocatorMode)] {
      guard let mode else { continue }
      let path = try home.write(name, "")
      try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }
    let preload = ApertiumStagePreload(
      bundle: home.path + "/" + test.bundle, libraryFolders: [home.path + "/none", home.path + "/lib"])
    #expect(preload.paths.map { String($0.split(separator: "/").last!) } == test.loaded)
    #expect(preload.paths.allSatisfy { $0.hasPrefix(home.path + "/") })
  }

  /// The tagger's fix comes first, from the bundle, under the same checks.
  @Test(arguments: [(0o755, true), (0o444, true), (0o775, false), (0o757, false)])
  func loadsTheTaggersFixFromTheBundle(mode: Int, loaded: Bool) throws {
    let home = try TemporaryDirectory()
    for name in [ApertiumStagePreload.taggerOpenClass, Self.scan] {
      let path = try home.write("Apertium.translationprovider/" + name, "")
      try FileManager.default.setAttributes(
        [.posixPermissions: name == Self.scan ? 0o755 : mode], ofItemAtPath: path)
    }
    let preload = ApertiumStagePreload(bundle: home.path + "/Apertium.translationprovider", libraryFolders: [])
    #expect(
      preload.paths.map { String($0.split(separator: "/").last!) }
        == (loaded ? [ApertiumStagePreload.taggerOpenClass, Self.scan] : [Self.scan]))
  }

  @Test func goesBeforeWhatThePreloadListHeld() {
    let preload = ApertiumStagePreload(paths: ["/a/one.so", "/b/two.so"])
    #expect(preload.environmentValue(after: "/usr/lib/other.so") == "/a/one.so /b/two.so /usr/lib/other.so")
    #expect(preload.environmentValue(after: "") == "/a/one.so /b/two.so")
    #expect(ApertiumStagePreload.none.environmentValue(after: nil) == nil)
    #expect(ApertiumStagePreload.none.environmentValue(after: "/usr/lib/other.so") == "/usr/lib/other.so")
  }
}
