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
    identifier: String = UniqueName.make("org.example.fixture")
  ) throws -> String {
    let source = CFixture.packageRoot + "/Tests/Fixtures/misbehaving_provider.c"
    let library = try CFixture.compile(source, defines: defines, name: "libFixture", in: directory)
    return try BundleFixture(name: "Fixture", identifier: identifier).write(name: "Fixture", in: directory, library: library)
  }

  /// The file a `fixture` creates in its container (its HOME) when a
  /// translate request reaches it, for a runner started with `environment`:
  /// containers are in `$XDG_DATA_HOME` when it is absolute, else in
  /// `~/.local/share`, as the host puts them.
  static func requestMarker(identifier: String, environment: [String: String]) -> String {
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
    let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
    return data + "/translation-host/containers/" + identifier + "/request-received"
  }
}

/// Whether a process whose command line names `identifier` runs (a runner
/// of that provider, started by this process or by a service).
func runnerIsRunning(_ identifier: String) -> Bool {
  Processes.all().contains { Processes.isRunning($0.pid) && Processes.arguments(of: $0.pid)?.contains(identifier) == true }
}

extension Locale.Language {
  /// Shorthand for the tests' tables.
  static func tag(_ tag: String) -> Locale.Language { Locale.Language(languageTag: tag) }
}
