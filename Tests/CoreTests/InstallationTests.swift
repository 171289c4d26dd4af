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

  @Test(.enabled(if: noSystemInstallation, "translation-host is installed in /usr/local or /usr"))
  func withoutOneOnThePathThereIsNone() {
    #expect(Installation.current(environment: ["PATH": "/usr/bin:/bin"]) == nil)
    let search = SearchPath.standard(environment: ["PATH": "/usr/bin:/bin", "HOME": "/home/nobody"])
    #expect(!search.folders.contains { $0.origin == .prefix })
  }
}
