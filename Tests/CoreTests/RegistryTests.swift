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

  /// The attack of issue 24: a second bundle folder, a link into the
  /// provider's container sorted first, with the same identifier. It is
  /// refused, so it neither shadows the real one nor takes its identity.
  @Test func aLinkedBundleSortedFirstTakesNoIdentity() throws {
    let container = try TemporaryDirectory()
    var forged = BundleFixture(name: "Net", identifier: "org.example.same")
    forged.info[ManifestKey.networkAccess] = .boolean(true)
    let written = try forged.write(name: "Net", in: container)
    symlink(written, first.path + "/AAA.translationprovider")
    let real = try BundleFixture(name: "Real", identifier: "org.example.same").write(name: "Real", in: first)
    let snapshot = registry([first]).scan()
    #expect(snapshot.entries.map(\.path) == [first.path + "/AAA.translationprovider", real])
    #expect(snapshot.entries.first?.manifest == nil)
    #expect(snapshot.usable.map(\.path) == [real])
    #expect(try snapshot.entry(named: "org.example.same").manifest?.allowsNetworkAccess == false)
    #expect(IdentityClaim(identifier: "org.example.same", path: real, in: snapshot) == .owner)
  }

  @Test(arguments: [
    ("first", IdentityClaim.owner), ("second", .heldBy("first")), ("outside", .heldBy("first")),
    ("other", .unclaimed),
  ])
  func anIdentifierBelongsToTheFirstBundleThatDeclaresIt(_ bundle: String, _ claim: IdentityClaim) throws {
    let outside = try TemporaryDirectory()
    let paths = [
      "first": try BundleFixture(name: "A", identifier: "org.example.same").write(name: "A", in: first),
      "second": try BundleFixture(name: "B", identifier: "org.example.same").write(name: "B", in: second),
      "outside": try BundleFixture(name: "C", identifier: "org.example.same").write(name: "C", in: outside),
      "other": try BundleFixture(name: "D", identifier: "org.example.other").write(name: "D", in: outside),
    ]
    let snapshot = registry([first, second]).scan()
    let identifier = bundle == "other" ? "org.example.other" : "org.example.same"
    let expected: IdentityClaim = if case .heldBy(let name) = claim { .heldBy(paths[name]!) } else { claim }
    #expect(IdentityClaim(identifier: identifier, path: paths[bundle]!, in: snapshot) == expected)
    #expect(
      IdentityClaim(
        identifier: identifier, path: paths[bundle]! + "/../" + URL(fileURLWithPath: paths[bundle]!).lastPathComponent,
        in: snapshot) == expected)
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
    try BundleFixture(name: "Cached", identifier: "org.example.aaaa").write(name: "Cached", in: first)
    #expect(registry([first]).scan().entries.first?.identifier == "org.example.aaaa")
    // The record is changed behind the registry's back, the bundle is not:
    // what the next scan says can only have come from the cache.
    try rewrite(cacheFile, replacing: "org.example.aaaa", with: "org.example.bbbb")
    #expect(registry([first]).scan().entries.first?.identifier == "org.example.bbbb")
  }

  /// Size, modification time and inode as before (a rewrite in place, then
  /// `touch -r`): only the status change time tells, and it is enough.
  @Test func aManifestRewrittenWithItsTimesRestoredIsReread() throws {
    let path = try BundleFixture(name: "Cached", identifier: "org.example.aaaa").write(name: "Cached", in: first)
    #expect(registry([first]).scan().entries.first?.identifier == "org.example.aaaa")
    let before = try FileStatus(path: path + "/Info.plist")
    try waitForChangeTimeAfter(before.changed, in: root.path)
    try rewrite(path + "/Info.plist", replacing: "org.example.aaaa", with: "org.example.bbbb", keepingTime: before.modified)
    let after = try FileStatus(path: path + "/Info.plist")
    #expect((after.size, after.modified, after.inode) == (before.size, before.modified, before.inode))
    #expect(registry([first]).scan().entries.first?.identifier == "org.example.bbbb")
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

  /// Caches that must be ignored (or whose records must be), and rewritten.
  static let corruptCaches: [(String, [UInt8])] = [
    ("empty", []),
    ("not a cache", Array("garbage\n".utf8)),
    ("version 3 (text records)", Array("translation-host registry cache 3\n/x\t.:1:2:3:4:5:6\t\n".utf8)),
    ("a future version", Array("translation-host registry cache 999\n".utf8)),
    ("a record longer than the file", RegistryCache.header + [0xFF, 0xFF, 0xFF, 0x7F, 1, 2]),
    ("a truncated length", RegistryCache.header + [4, 0]),
    ("a record that does not decode", RegistryCache.header + [4, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]),
    ("an empty record", RegistryCache.header + [0, 0, 0, 0]),
  ]

  @Test(arguments: corruptCaches)
  func aCorruptCacheIsIgnoredAndRewritten(_ name: String, _ contents: [UInt8]) throws {
    let path = try BundleFixture(name: "Fine").write(name: "Fine", in: first)
    try FileManager.default.createDirectory(atPath: root.path + "/cache", withIntermediateDirectories: true)
    try Data(contents).write(to: URL(fileURLWithPath: cacheFile))
    #expect(registry([first]).scan().usable.map(\.path) == [path])
    let records = try #require(RegistryCache.load(from: cacheFile)?.inspections())
    #expect(records.count == 1)
    #expect(records[path]?.manifest?.identifier == "org.example.fine")
  }

  /// Bundles whose every field must come back from the cache as it was read.
  static let cachedBundles: [(String, @Sendable (TemporaryDirectory) throws -> Void)] = [
    (
      "a manifest with problems",
      { folder in
        var broken = BundleFixture(name: "Broken")
        broken.info["CFBundleName"] = .integer(1)
        try broken.write(name: "Broken", in: folder)
      }
    ),
    (
      "texts with tabs, separators, escapes and non-ASCII",
      { folder in
        var odd = BundleFixture(name: "Odd")
        odd.info["CFBundleDisplayName"] = .string("Tab\there: and/slash %25 ñ")
        try odd.write(name: "Odd", in: folder)
      }
    ),
    (
      "settings",
      { folder in
        var configured = BundleFixture(name: "Configured")
        configured.info["TPSettings"] = .array([
          .dictionary([
            "Key": .string("endpoint"), "Title": .string("Server"), "Type": .string("string"), "Default": .string("x"),
          ]),
          .dictionary([
            "Key": .string("strict"), "Title": .string("Strict"), "Type": .string("boolean"), "Default": .boolean(true),
          ]),
        ])
        try configured.write(name: "Configured", in: folder)
      }
    ),
    (
      "read-only paths, one refused",
      { folder in
        var reading = BundleFixture(name: "Reading")
        reading.info["TPReadOnlyPaths"] = .array([.string("/usr/share/dict"), .string("/srv/data"), .string("/home/someone")])
        try reading.write(name: "Reading", in: folder)
      }
    ),
    (
      "network access",
      { folder in
        var online = BundleFixture(name: "Online")
        online.entitlements?["com.apple.developer.translation-ui-provider.network-access"] = .boolean(true)
        try online.write(name: "Online", in: folder)
      }
    ),
    ("a file where a bundle folder should be", { folder in _ = try folder.write("Loose.translationprovider", "x") }),
    (
      "bundle folders with non-ASCII names",
      { folder in
        try BundleFixture(name: "Ñandú").write(name: "Ñandú", in: folder)
        try BundleFixture(name: "Zebra").write(name: "Zebra", in: folder)
        try BundleFixture(name: "Ant").write(name: "Ant", in: folder)
      }
    ),
  ]

  @Test(arguments: cachedBundles)
  func cachedAndFreshScansAgree(_ name: String, _ make: @Sendable (TemporaryDirectory) throws -> Void) throws {
    try make(first)
    try BundleFixture(name: "Plain").write(name: "Plain", in: first)
    let fresh = registry([first], cache: false).scan()
    #expect(registry([first]).scan() == fresh)
    let cached = try #require(RegistryCache.load(from: cacheFile))
    #expect(cached.inspections() == Dictionary(uniqueKeysWithValues: fresh.entries.map { ($0.path, $0.inspection) }))
    #expect(registry([first]).scan() == fresh)
  }

  /// Changes to an installed bundle (`Middle`, between two others) or its
  /// folder, each of which the next listing must show.
  static let changes: [(String, @Sendable (_ folder: TemporaryDirectory, _ bundle: String) throws -> Void)] = [
    ("a bundle added", { folder, _ in try BundleFixture(name: "Added").write(name: "Added", in: folder) }),
    ("a bundle removed", { _, bundle in try FileManager.default.removeItem(atPath: bundle) }),
    (
      "a bundle renamed",
      { folder, bundle in
        try FileManager.default.moveItem(atPath: bundle, toPath: folder.path + "/Renamed.translationprovider")
      }
    ),
    (
      "a bundle replaced by another of the same name",
      { folder, bundle in
        try FileManager.default.removeItem(atPath: bundle)
        try BundleFixture(name: "Middle", identifier: "org.example.replacement").write(name: "Middle", in: folder)
      }
    ),
    (
      "its manifest edited",
      { _, bundle in
        let text = try String(contentsOfFile: bundle + "/Info.plist", encoding: .utf8)
        try Data(text.replacingOccurrences(of: "org.example.middle", with: "org.example.edited").utf8)
          .write(to: URL(fileURLWithPath: bundle + "/Info.plist"))
      }
    ),
    ("its entitlements removed", { _, bundle in try FileManager.default.removeItem(atPath: bundle + "/Middle.entitlements") }),
    (
      "its executable replaced by text",
      { _, bundle in try Data("not a shared object".utf8).write(to: URL(fileURLWithPath: bundle + "/libMiddle.so")) }
    ),
    ("its manifest made writable by others", { _, bundle in #expect(chmod(bundle + "/Info.plist", 0o666) == 0) }),
    ("its executable made writable by the group", { _, bundle in #expect(chmod(bundle + "/libMiddle.so", 0o775) == 0) }),
    ("its folder made writable by others", { _, bundle in #expect(chmod(bundle, 0o777) == 0) }),
    // Its identity (BundleInspector.checkTree), deeper than the files a listing reads:
    ("a file beside its manifest given a second name", { folder, bundle in linkOut(bundle + "/libHelper.so", folder) }),
    ("a file in its subfolder given a second name", { folder, bundle in linkOut(bundle + "/Resources/data.bin", folder) }),
    (
      "a link out of it placed in its subfolder",
      { _, bundle in #expect(symlink("/etc/passwd", bundle + "/Resources/outside") == 0) }
    ),
    ("a named pipe placed in its subfolder", { _, bundle in #expect(mkfifo(bundle + "/Resources/pipe", 0o600) == 0) }),
    ("a file in its subfolder removed", { _, bundle in #expect(unlink(bundle + "/Resources/data.bin") == 0) }),
  ]

  /// Gives `file` a second name outside the bundle (in the search folder, which lists bundles only).
  private static func linkOut(_ file: String, _ folder: TemporaryDirectory) {
    #expect(link(file, folder.path + "/second-name") == 0)
  }

  @Test(arguments: changes)
  func theNextScanShowsEveryChange(_ name: String, _ change: @Sendable (TemporaryDirectory, String) throws -> Void) throws {
    try BundleFixture(name: "Alpha").write(name: "Alpha", in: first)
    let bundle = try BundleFixture(name: "Middle").write(name: "Middle", in: first)
    try BundleFixture(name: "Omega").write(name: "Omega", in: first)
    try FileManager.default.createDirectory(atPath: bundle + "/Resources", withIntermediateDirectories: false)
    for file in ["/libHelper.so", "/Resources/data.bin"] { try Data("data".utf8).write(to: URL(fileURLWithPath: bundle + file)) }
    let before = registry([first]).scan()
    #expect(registry([first]).scan() == before)
    try change(first, bundle)
    let after = registry([first]).scan()
    #expect(after == registry([first], cache: false).scan())
    #expect(after != before)
    #expect(registry([first]).scan() == after)
  }

  @Test func aSearchPathInAnotherOrderIsAnsweredFromTheCache() throws {
    let winner = try BundleFixture(name: "A", identifier: "org.example.same").write(name: "A", in: first)
    let loser = try BundleFixture(name: "B", identifier: "org.example.same").write(name: "B", in: second)
    _ = registry([first, second]).scan()
    let swapped = registry([second, first]).scan()
    #expect(swapped == registry([second, first], cache: false).scan())
    #expect(swapped.entries.map(\.path) == [loser, winner])
    #expect(swapped.entries.map(\.shadowedBy) == [nil, loser])
  }

  @Test(arguments: [
    ["b", "a", "c"],
    ["Bench10", "Bench2", "Bench1", "bench0", "Bench", "a-b", "a"],
    ["é", "e", "z", "Ñandú", "N"],
    ["e\u{301}x", "éy", "f", "e"],
    [],
  ])
  func bundlesAreListedInTheStringOrderOfTheirNames(_ names: [String]) throws {
    for name in names { try first.write("\(name).translationprovider/Info.plist", "") }
    try first.write("Other", "")
    try first.write(".translationprovider", "")
    let folder = SearchPath.Folder(path: first.path, origin: .environment)
    let paths = ProviderRegistry.sorted(try Directory.paths(in: first.path, endingWith: ".translationprovider"), in: folder)
    #expect(paths == names.map { $0 + ".translationprovider" }.sorted().map { first.path + "/" + $0 })
  }

  @Test func concurrentScansLeaveAReadableCache() async throws {
    for index in 0..<20 { try BundleFixture(name: "P\(index)").write(name: "P\(index)", in: first) }
    let registry = registry([first])
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 { group.addTask { _ = registry.scan() } }
    }
    #expect(RegistryCache.load(from: cacheFile)?.count == 20)
  }

  /// Replaces `old` with `new` in the file at `path`, in place (same inode),
  /// and sets its access and modification times to `nanoseconds` if given.
  private func rewrite(
    _ path: String, replacing old: String, with new: String, keepingTime nanoseconds: Int64? = nil
  ) throws {
    let contents = try Data(contentsOf: URL(fileURLWithPath: path))
    var replaced = contents
    replaced.replaceSubrange(try #require(contents.range(of: Data(old.utf8))), with: Data(new.utf8))
    try replaced.write(to: URL(fileURLWithPath: path))
    guard let nanoseconds else { return }
    var times = [
      timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000)),
      timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000)),
    ]
    #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
  }
}
