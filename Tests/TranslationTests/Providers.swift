import Foundation
import TestSupport
import Translation

/// The providers the library is tested against: the bundles `make build`
/// put in the build tree (addressed by path, so the user's registry and
/// default play no part), and C fixtures compiled for a test.
enum Providers {
  /// `$TRANSLATION_HOST_BUILD`, or `build/` in the package.
  static let buildDirectory = ProcessInfo.processInfo.environment["TRANSLATION_HOST_BUILD"] ?? CFixture.packageRoot + "/build"
  static let rot13 = bundle("Rot13")
  static let apertium = bundle("Apertium")

  /// A service (not started) that this process's library sessions use; it
  /// also searches `fixtures` (folders of `fixture` bundles), since a
  /// service runs only bundles its search path lists.
  static func service(searching fixtures: [TemporaryDirectory] = []) throws -> ServiceProcess {
    try ServiceProcess.shared(searching: fixtures.map(\.path))
  }

  static func bundle(_ name: String) -> String {
    buildDirectory + "/lib/translation-host/providers/\(name).translationprovider"
  }

  /// A bundle of `Tests/Fixtures/misbehaving_provider.c` built with `defines`
  /// (its pair is `en` → `en-x-upper`); the folder must outlive its use.
  /// Its runner's command line names `identifier`.
  static func fixture(
    _ defines: [String], in directory: TemporaryDirectory,
    identifier: String = "org.example.fixture\(UInt32.random(in: 0...UInt32.max))"
  ) throws -> String {
    let source = CFixture.packageRoot + "/Tests/Fixtures/misbehaving_provider.c"
    let library = try CFixture.compile(source, defines: defines, name: "libFixture", in: directory)
    return try BundleFixture(name: "Fixture", identifier: identifier).write(name: "Fixture", in: directory, library: library)
  }
}

/// Whether a process whose command line names `identifier` runs (a runner
/// of that provider, started by this process or by a service).
func runnerIsRunning(_ identifier: String) -> Bool {
  let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
  return processes.contains { pid in
    guard pid.allSatisfy(\.isNumber), let commandLine = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else {
      return false
    }
    return commandLine.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == identifier }
  }
}

extension Locale.Language {
  /// Shorthand for the tests' tables.
  static func tag(_ tag: String) -> Locale.Language { Locale.Language(languageTag: tag) }
}
