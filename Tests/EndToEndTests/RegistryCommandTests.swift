import Foundation
import TestSupport
import Testing

@Suite(.tags(.endToEnd)) struct RegistryCommandTests {
  static let fixtureSource = CFixture.packageRoot + "/Tests/Fixtures/misbehaving_provider.c"

  /// A working C provider bundle named `name` in `directory`.
  private func provider(_ name: String, in directory: TemporaryDirectory) throws -> String {
    let library = try CFixture.compile(Self.fixtureSource, name: "lib\(name)", in: directory)
    return try BundleFixture(name: name).write(name: name, in: directory, library: library)
  }

  private struct Listed: Decodable {
    var id: String?
    var eligible: Bool
    var isDefault: Bool
    var networkAccess: Bool
    var shadowedBy: String?
    var problems: [String]
  }

  @Test func listShowsEligibleProvidersAndAllShowsTheRest() throws {
    let folder = try TemporaryDirectory()
    try provider("Good", in: folder)
    var refused = BundleFixture(name: "Refused")
    refused.entitlements = [:]
    try refused.write(name: "Refused", in: folder)
    let host = try Host(providerPath: folder.path)

    let plain = try host.run("list")
    #expect(plain.exitCode == 0)
    #expect(plain.stdout.contains("org.example.good"))
    #expect(!plain.stdout.contains("org.example.refused"))

    let all = try JSONDecoder().decode([Listed].self, from: Data(try host.run("list", "--all", "--json").stdout.utf8))
    let refusedEntry = try #require(all.first { $0.id == "org.example.refused" })
    #expect(!refusedEntry.eligible)
    #expect(refusedEntry.problems.first?.contains("entitlement 'com.apple.developer.translation-app' is not true") == true)
    #expect(all.first { $0.id == "org.example.good" }?.eligible == true)
    #expect(all.filter(\.isDefault).count == 1)
  }

  @Test func setDefaultChoosesAndDefaultExplains() throws {
    let host = try Host()
    #expect(try host.run("set-default", "Rot13").stdout == "default provider: org.translationhost.rot13\n")
    let explained = try host.run("default", "--explain")
    #expect(explained.stdout.hasPrefix("org.translationhost.rot13\n"))
    #expect(explained.stdout.contains("chose 'org.translationhost.rot13' (preference 1)"))
    let listed = try JSONDecoder().decode([Listed].self, from: Data(try host.run("list", "--json").stdout.utf8))
    #expect(listed.first { $0.isDefault }?.id == "org.translationhost.rot13")
  }

  @Test func setDefaultRefusesUnknownAndIneligibleProviders() throws {
    let folder = try TemporaryDirectory()
    var refused = BundleFixture(name: "Refused")
    refused.entitlements = [:]
    try refused.write(name: "Refused", in: folder)
    let host = try Host(providerPath: folder.path)
    let unknown = try host.run("set-default", "org.example.nothing")
    #expect(unknown.exitCode == 69)
    #expect(unknown.stderr.contains("no provider 'org.example.nothing'"))
    let ineligible = try host.run("set-default", "org.example.refused")
    #expect(ineligible.exitCode == 69)
    #expect(ineligible.stderr.contains("may not run"))
  }

  @Test func setDefaultRefusesAShadowedBundle() throws {
    let first = try TemporaryDirectory()
    let second = try TemporaryDirectory()
    try provider("Copy", in: first)
    let shadowed = try provider("Copy", in: second)
    let result = try Host(providerPath: "\(first.path):\(second.path)").run("set-default", shadowed)
    #expect(result.exitCode == 69)
    #expect(result.stderr.contains("shadowed by \(first.path)/Copy.translationprovider"))
  }

  @Test func whenTheDefaultIsUninstalledTheNextPreferenceIsUsedWithANotice() throws {
    let source = try TemporaryDirectory()
    let bundle = try provider("Mine", in: source)
    let host = try Host()
    let installed = try host.run("install", bundle)
    #expect(installed.exitCode == 0, "\(installed.stderr)")
    _ = try host.run("set-default", "org.translationhost.rot13")
    _ = try host.run("set-default", "org.example.mine")
    #expect(try host.run("default").stdout == "org.example.mine\n")
    #expect(try host.run("uninstall", "org.example.mine").exitCode == 0)
    #expect(try host.run("default").stdout == "org.translationhost.rot13\n")
    let translated = try host.run("translate", "--from", "en", "--to", "en-x-rot13", "abc")
    #expect(translated.stdout == "nop\n")
    #expect(
      translated.stderr.contains("the default provider 'org.example.mine' is not usable; using 'org.translationhost.rot13'"))
  }

  @Test func fiftyConcurrentSetDefaultsLeaveOneReadableChoice() throws {
    let host = try Host()
    let script =
      (0..<50).map { index in
        "\(Host.executable) set-default \(index % 2 == 0 ? "Rot13" : "Reverse") >/dev/null 2>&1 &"
      }.joined(separator: "\n") + "\nwait\n"
    _ = try Command.run("/bin/sh", ["-c", script], environment: host.environment)
    let file = try String(contentsOfFile: host.home.path + "/config/translation-host/default-providers", encoding: .utf8)
    let identifiers = file.split(separator: "\n").filter { !$0.hasPrefix("#") }
    #expect(Set(identifiers) == ["org.translationhost.rot13", "org.translationhost.reverse"])
    try #require(identifiers.count == 2, "\(file)")
    let chosen = try host.run("default").stdout
    #expect(chosen == identifiers[0] + "\n")
  }

  @Test func validatePassesAGoodBundleAndExplainsABadOne() throws {
    let folder = try TemporaryDirectory()
    let good = try provider("Good", in: folder)
    let passed = try Host().run("validate", good)
    #expect(passed.exitCode == 0, "\(passed.stdout)")
    #expect(passed.stdout.contains("ok    scene renders on 'Hello, world!'; buttons: 'Go'"))
    #expect(passed.stdout.contains("ok    translate en → en-x-upper: 'Hello, world!' → 'HELLO, WORLD!'"))

    let library = try CFixture.compile(Self.fixtureSource, defines: ["ABI_MAJOR=2"], name: "libOld", in: folder)
    var old = BundleFixture(name: "Old")
    old.info["CFBundleName"] = .integer(1)
    let bad = try old.write(name: "Old", in: folder, library: library)
    let failed = try Host().run("validate", bad)
    #expect(failed.exitCode == 69)
    #expect(failed.stdout.contains("FAIL  \(bad)/Info.plist: key 'CFBundleName' is of type integer but must be of type string"))
  }

  @Test func installRefusesAnInvalidBundleAndInstallsNothing() throws {
    let folder = try TemporaryDirectory()
    let library = try CFixture.compile(Self.fixtureSource, defines: ["INIT_FAILS"], name: "libFails", in: folder)
    let bundle = try BundleFixture(name: "Fails").write(name: "Fails", in: folder, library: library)
    let host = try Host()
    let result = try host.run("install", bundle)
    #expect(result.exitCode == 69)
    #expect(result.stderr.contains("init returned false"))
    #expect(
      !FileManager.default.fileExists(atPath: host.home.path + "/data/translation-host/providers/Fails.translationprovider"))
  }

  @Test func uninstallLeavesSystemBundlesAlone() throws {
    let result = try Host().run("uninstall", "org.translationhost.rot13")
    #expect(result.exitCode == 1)
    #expect(result.stderr.contains("is not in your provider folder"))
  }

  @Test func infoDescribesOneProvider() throws {
    let result = try Host().run("info", "org.translationhost.reverse")
    #expect(result.stdout.contains("Identifier:       org.translationhost.reverse"))
    #expect(result.stdout.contains("Network access:   not declared: the provider gets no network"))
  }
}
