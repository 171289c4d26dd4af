import Foundation
import TestSupport
import Testing

@testable import ApertiumSupport

/// apt's list of pair packages kept in a file for the next process: used
/// only with the stamp of the files apt answers from, and only as written.
@Suite struct PairPackageCacheTests {
  static let names = "apertium-eng-spa\napertium-eng-cat\napertium-dev\n"

  /// (what the file holds, given the stamp "s1"; whether the names are used).
  @Test(arguments: [
    ("translation-host apertium-pair-packages 1\ns1\n" + names, true),
    ("translation-host apertium-pair-packages 1\ns2\n" + names, false),
    ("translation-host apertium-pair-packages 2\ns1\n" + names, false),
    ("s1\n" + names, false),
    ("translation-host apertium-pair-packages 1\ns1", false),
    ("translation-host apertium-pair-packages 1\ns1\n" + String(repeating: "apertium-eng-spa\n", count: 20_000), false),
  ])
  func aKeptAnswerIsUsedOnlyWithItsStamp(_ contents: String, _ used: Bool) throws {
    let home = try TemporaryDirectory()
    let cache = try #require(PairPackageCache(environment: ["HOME": home.path]))
    #expect(cache.path == home.path + "/.cache/translation-host/apertium-pair-packages")
    try FileManager.default.createDirectory(atPath: home.path + "/.cache/translation-host", withIntermediateDirectories: true)
    try contents.write(toFile: cache.path, atomically: true, encoding: .utf8)
    #expect((cache.read(stamp: "s1") == Self.names) == used)
  }

  @Test func whatIsWrittenIsReadBackWithTheSameStamp() throws {
    let home = try TemporaryDirectory()
    let cache = try #require(PairPackageCache(environment: ["XDG_CACHE_HOME": home.path + "/cache", "HOME": "/nonexistent"]))
    #expect(cache.read(stamp: "s1") == nil)
    cache.write(Self.names, stamp: "s1")
    #expect(cache.read(stamp: "s1") == Self.names)
    #expect(cache.read(stamp: "s2") == nil)
    // What the parser makes of it: both directions of each pair package, nothing else.
    #expect(DebianPairPackages.parse(Self.names).map { "\($0.source)>\($0.target)" } == ["en>es", "es>en", "en>ca", "ca>en"])
  }

  @Test func withoutAHomeNothingIsKept() {
    #expect(PairPackageCache(environment: [:]) == nil)
    #expect(PairPackageCache(environment: ["HOME": "relative"]) == nil)
  }
}
