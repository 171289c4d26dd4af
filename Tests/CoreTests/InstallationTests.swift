import Foundation
import TestSupport
import Testing

@testable import Core
@testable import System

/// An app's installation is the translation-host on its PATH, whatever folder
/// the app itself is in (this test binary is such an app).
@Suite struct InstallationTests {
  static let noSystemInstallation = !["/usr/local/bin", "/usr/bin"].contains {
    FileManager.default.isExecutableFile(atPath: $0 + "/translation-host")
  }

  @Test func anAppUsesTheTranslationHostOnItsPath() throws {
    #expect(!Installation.isOwnProgram)
    let folder = try TemporaryDirectory()
    let tool = try folder.write("opt/th/bin/translation-host", "#!/bin/sh\n")
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool)
    try FileManager.default.createDirectory(atPath: folder.path + "/links", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: folder.path + "/links/translation-host", withDestinationPath: tool)
    // The link is followed to the installation it belongs to.
    let installation = try #require(Installation.current(environment: ["PATH": "/nonexistent:" + folder.path + "/links"]))
    let prefix = try #require(Syscalls.realPath(folder.path)) + "/opt/th"
    #expect(installation.prefix == prefix)
    #expect(installation.providers == prefix + "/lib/translation-host/providers")
    #expect(installation.runnerCandidates.first == prefix + "/libexec/translation-host/translation-provider-runner")
    let search = SearchPath.standard(environment: ["PATH": folder.path + "/links", "HOME": folder.path])
    #expect(search.folders.contains(SearchPath.Folder(path: prefix + "/lib/translation-host/providers", origin: .prefix)))
  }

  /// Each program of an installation finds the same one: the desktop half of
  /// the CLI and the runner from libexec, the tool from bin, and all of them
  /// side by side in SwiftPM's build folder.
  @Test(arguments: [
    ("/opt/th/bin/translation-host", "/opt/th/bin"),
    ("/opt/th/libexec/translation-host/translation-host-desktop", "/opt/th/bin"),
    ("/opt/th/libexec/translation-host/translation-provider-runner", "/opt/th/bin"),
    ("/work/th/.build/release/translation-host-desktop", "/work/th/.build/release"),
    ("/work/th/.build/release/translation-host", "/work/th/.build/release"),
    ("/opt/th/lib/translation-host/translation-host-desktop", "/opt/th/lib/translation-host"),
  ])
  func everyProgramFindsItsInstallation(program: String, toolFolder: String) {
    let installation = Installation(program: program)
    #expect(installation.toolFolder == toolFolder)
    let prefix = URL(fileURLWithPath: toolFolder).deletingLastPathComponent().path
    #expect(
      installation.desktopCandidates == [
        prefix + "/libexec/translation-host/translation-host-desktop", toolFolder + "/translation-host-desktop",
      ])
  }

  @Test(.enabled(if: noSystemInstallation, "translation-host is installed in /usr/local or /usr"))
  func withoutOneOnThePathThereIsNone() {
    #expect(Installation.current(environment: ["PATH": "/usr/bin:/bin"]) == nil)
    let search = SearchPath.standard(environment: ["PATH": "/usr/bin:/bin", "HOME": "/home/nobody"])
    #expect(!search.folders.contains { $0.origin == .prefix })
  }
}
