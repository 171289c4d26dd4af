import FoundationEssentials
import TestSupport
import Testing

@testable import Core

@Suite struct DefaultChoiceTests {
  let user: TemporaryDirectory
  let system: TemporaryDirectory
  let snapshot: RegistrySnapshot

  init() throws {
    user = try TemporaryDirectory()
    system = try TemporaryDirectory()
    try BundleFixture(name: "Zeta", identifier: "org.example.zeta").write(name: "Zeta", in: user)
    try BundleFixture(name: "Beta", identifier: "org.example.beta").write(name: "Beta", in: system)
    try BundleFixture(name: "Alpha", identifier: "org.example.alpha").write(name: "Alpha", in: system)
    var refused = BundleFixture(name: "Refused", identifier: "org.example.refused")
    refused.entitlements = [:]
    try refused.write(name: "Refused", in: system)
    snapshot = ProviderRegistry(
      searchPath: SearchPath(folders: [
        SearchPath.Folder(path: user.path, origin: .user), SearchPath.Folder(path: system.path, origin: .system),
      ]),
      cacheFile: nil
    ).scan()
  }

  @Test func theFirstUsablePreferenceWinsWithoutNotice() {
    let choice = DefaultChoice.choose(from: snapshot, preferences: ["org.example.beta", "org.example.zeta"])
    #expect(choice.entry?.identifier == "org.example.beta")
    #expect(choice.notice == nil)
  }

  @Test func missingAndRefusedPreferencesAreSkippedWithANotice() {
    let choice = DefaultChoice.choose(
      from: snapshot, preferences: ["org.example.gone", "org.example.refused", "org.example.alpha"])
    #expect(choice.entry?.identifier == "org.example.alpha")
    #expect(choice.explanation.count == 3)
    #expect(choice.explanation[0] == "skipped 'org.example.gone' (preference 1): not installed")
    #expect(choice.explanation[1].hasPrefix("skipped 'org.example.refused' (preference 2): "))
    #expect(choice.notice?.contains("the default provider 'org.example.gone' is not usable; using 'org.example.alpha'") == true)
  }

  @Test func withoutPreferencesTheRulePicksTheFirstFolderThenTheLowestIdentifier() {
    let choice = DefaultChoice.choose(from: snapshot, preferences: [])
    #expect(choice.entry?.identifier == "org.example.zeta")
    #expect(choice.notice != nil)
    let systemOnly = RegistrySnapshot(
      searchPath: snapshot.searchPath, entries: snapshot.entries.filter { $0.folder.origin == .system }, folderProblems: [])
    #expect(DefaultChoice.choose(from: systemOnly, preferences: []).entry?.identifier == "org.example.alpha")
  }

  @Test func nothingUsableMeansNoChoice() {
    let empty = RegistrySnapshot(searchPath: snapshot.searchPath, entries: [], folderProblems: [])
    #expect(DefaultChoice.choose(from: empty, preferences: ["org.example.alpha"]).entry == nil)
  }

  @Test func preferencesMoveTheChosenFirstAndKeepTheRest() throws {
    let folder = try TemporaryDirectory()
    let preferences = DefaultPreferences(file: folder.path + "/config/default-providers")
    try preferences.prefer("org.example.a")
    try preferences.prefer("org.example.b")
    #expect(try preferences.prefer("org.example.a") == ["org.example.a", "org.example.b"])
    try Data("org.example.c\n# comment\nnot an id!\n  org.example.a  \n".utf8).write(to: URL(fileURLWithPath: preferences.file))
    let read = try preferences.read()
    #expect(read.identifiers == ["org.example.c", "org.example.a"])
    #expect(read.ignored == ["not an id!"])
  }
}
