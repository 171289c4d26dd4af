import Foundation
import Glibc
import TestSupport
import Testing

@testable import Core
@testable import System

@Suite struct RegistryTests {
  let root: TemporaryDirectory
  let first: TemporaryDirectory
  let second: TemporaryDirectory

  init() throws {
    root = try TemporaryDirectory()
    first = try TemporaryDirectory()
    second = try TemporaryDirectory()
  }

  private var cacheFile: String { root.path + "/cache/" + RegistryCache.fileName }

  private func registry(_ folders: [TemporaryDirectory], cache: Bool = true) -> ProviderRegistry {
    ProviderRegistry(
      searchPath: SearchPath(folders: folders.map { SearchPath.Folder(path: $0.path, origin: .environment) }),
      cacheFile: cache ? cacheFile : nil)
  }

  @Test func theFirstBundleInSearchOrderWinsAndTheOtherIsShadowed() throws {
    let winner = try BundleFixture(name: "A", identifier: "org.example.same").write(name: "A", in: first)
    let loser = try BundleFixture(name: "B", identifier: "org.example.same").write(name: "B", in: second)
    let snapshot = registry([first, second]).scan()
    #expect(snapshot.entries.map(\.path) == [winner, loser])
    #expect(snapshot.entries.map(\.shadowedBy) == [nil, winner])
    #expect(snapshot.usable.map(\.path) == [winner])
    #expect(try snapshot.entry(named: "org.example.same").path == winner)
    #expect(try snapshot.entry(named: loser).shadowedBy == winner)
  }

  @Test func oneBadBundleNeverHidesTheGoodOnes() throws {
    var broken = BundleFixture(name: "Bad")
    broken.info["CFBundleIdentifier"] = nil
    try broken.write(name: "Bad", in: first)
    try Data("x".utf8).write(to: URL(fileURLWithPath: first.path + "/Loose.translationprovider"))
    let good = try BundleFixture(name: "Good").write(name: "Good", in: first)
    let snapshot = registry([first]).scan()
    #expect(snapshot.entries.count == 3)
    #expect(snapshot.usable.map(\.path) == [good])
  }

  @Test func aSearchFolderOthersCanWriteIsRefused() throws {
    try BundleFixture(name: "Open").write(name: "Open", in: first)
    chmod(first.path, 0o777)
    let snapshot = registry([first]).scan()
    #expect(snapshot.entries.isEmpty)
    #expect(snapshot.folderProblems == [.writableByOthers(first.path, mode: 0o40777)])
  }

  @Test func findsByNameAndReportsAmbiguousNames() throws {
    try BundleFixture(name: "Same", identifier: "org.example.one").write(name: "One", in: first)
    try BundleFixture(name: "Same", identifier: "org.example.two").write(name: "Two", in: first)
    try BundleFixture(name: "Unique").write(name: "Unique", in: first)
    let snapshot = registry([first]).scan()
    #expect(try snapshot.entry(named: "Unique").identifier == "org.example.unique")
    #expect(throws: RegistryError.ambiguous("Same", identifiers: ["org.example.one", "org.example.two"])) {
      try snapshot.entry(named: "Same")
    }
    #expect(throws: RegistryError.self) { try snapshot.entry(named: "org.example.none") }
  }

  @Test func theCacheIsUsedWhileFilesAreUnchanged() throws {
    let path = try BundleFixture(name: "Cached", identifier: "org.example.aaaa").write(name: "Cached", in: first)
    #expect(registry([first]).scan().entries.first?.identifier == "org.example.aaaa")
    // Same size, same modification time: the registry trusts its cache. (Only
    // a deliberate rewind of the clock can do this; it proves the cache is read.)
    let before = try FileStatus(path: path + "/Info.plist")
    try rewrite(path + "/Info.plist", replacing: "org.example.aaaa", with: "org.example.bbbb", keepingTime: before.modified)
    #expect(registry([first]).scan().entries.first?.identifier == "org.example.aaaa")
  }

  @Test func aManifestChangedWithoutAChangeInSizeIsReread() throws {
    let path = try BundleFixture(name: "Cached", identifier: "org.example.aaaa").write(name: "Cached", in: first)
    #expect(registry([first]).scan().entries.first?.identifier == "org.example.aaaa")
    let before = try FileStatus(path: path + "/Info.plist")
    try rewrite(
      path + "/Info.plist", replacing: "org.example.aaaa", with: "org.example.bbbb", keepingTime: before.modified + 1_000_000_000)
    #expect(try FileStatus(path: path + "/Info.plist").size == before.size)
    #expect(registry([first]).scan().entries.first?.identifier == "org.example.bbbb")
  }

  @Test func aNewEntitlementsFileIsNoticed() throws {
    let path = try BundleFixture(name: "Grows").write(name: "Grows", in: first)
    #expect(registry([first]).scan().usable.count == 1)
    try Data(BundleFixture.plist([:]).utf8).write(to: URL(fileURLWithPath: path + "/Second.entitlements"))
    #expect(registry([first]).scan().usable.isEmpty)
  }

  @Test(arguments: ["", "garbage\n", "translation-host registry cache 1\n/x\tbroken", "translation-host registry cache 999\n"])
  func aCorruptCacheIsIgnoredAndRewritten(_ contents: String) throws {
    let path = try BundleFixture(name: "Fine").write(name: "Fine", in: first)
    try FileManager.default.createDirectory(atPath: root.path + "/cache", withIntermediateDirectories: true)
    try Data(contents.utf8).write(to: URL(fileURLWithPath: cacheFile))
    #expect(registry([first]).scan().usable.map(\.path) == [path])
    let records = try #require(RegistryCache.load(from: cacheFile))
    #expect(records[path]?.manifest?.identifier == "org.example.fine")
  }

  @Test func cachedAndFreshScansAgree() throws {
    var broken = BundleFixture(name: "Broken")
    broken.info["CFBundleName"] = .integer(1)
    try broken.write(name: "Broken", in: first)
    var odd = BundleFixture(name: "Odd")
    odd.info["CFBundleDisplayName"] = .string("Tab\there: and/slash %25 ñ")
    try odd.write(name: "Odd", in: first)
    let fresh = registry([first], cache: false).scan()
    _ = registry([first]).scan()
    #expect(registry([first]).scan() == fresh)
  }

  @Test func concurrentScansLeaveAReadableCache() async throws {
    for index in 0..<20 { try BundleFixture(name: "P\(index)").write(name: "P\(index)", in: first) }
    let registry = registry([first])
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 { group.addTask { _ = registry.scan() } }
    }
    #expect(RegistryCache.load(from: cacheFile)?.count == 20)
  }

  private func rewrite(_ path: String, replacing old: String, with new: String, keepingTime nanoseconds: Int64) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: old, with: new)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    var times = [
      timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000)),
      timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000)),
    ]
    #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
  }
}
