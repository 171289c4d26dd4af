import Foundation
import Glibc
import TestSupport
import Testing

@testable import DesktopPopover

/// The kept restore token of the RemoteDesktop portal: kept 0600 in a 0700
/// folder, read back only when nobody else could have written or read it.
@Suite struct RemoteDesktopGrantTests {
  static let token = "0e4c8a1e-6f0b-4d5e-9c3a-2b1d7f8e9a10"

  @Test func keptPrivatelyAndReadBack() throws {
    let folder = try TemporaryDirectory()
    let grant = RemoteDesktopGrant(environment: ["HOME": folder.path, "XDG_STATE_HOME": folder.path + "/state"])
    #expect(grant.path == folder.path + "/state/translation-host/remote-desktop-restore-token")
    #expect(grant.read() == nil)
    grant.keep(Self.token)
    #expect(grant.read() == Self.token)
    let file = try FileManager.default.attributesOfItem(atPath: grant.path)
    #expect((file[.posixPermissions] as? Int) == 0o600)
    let parent = try FileManager.default.attributesOfItem(atPath: folder.path + "/state/translation-host")
    #expect((parent[.posixPermissions] as? Int) == 0o700)
    grant.keep("not a token")
    #expect(grant.read() == Self.token)
    #expect(RemoteDesktopGrant(environment: ["HOME": folder.path]).path.hasPrefix(folder.path + "/.local/state/"))
  }

  enum Hostile: String, CaseIterable, Sendable { case readableByOthers, symbolicLink, notAToken, huge }

  @Test(arguments: Hostile.allCases)
  func aFileNobodyShouldTrustIsIgnored(_ hostile: Hostile) throws {
    let folder = try TemporaryDirectory()
    let grant = RemoteDesktopGrant(environment: ["HOME": folder.path, "XDG_STATE_HOME": folder.path + "/state"])
    grant.keep(Self.token)
    switch hostile {
    case .readableByOthers: chmod(grant.path, 0o644)
    case .symbolicLink:
      let elsewhere = try folder.write("elsewhere", Self.token + "\n")
      chmod(elsewhere, 0o600)
      unlink(grant.path)
      symlink(elsewhere, grant.path)
    case .notAToken: try (Self.token + "; rm -rf ~\n").write(toFile: grant.path, atomically: false, encoding: .utf8)
    case .huge: try String(repeating: Self.token + "\n", count: 100).write(toFile: grant.path, atomically: false, encoding: .utf8)
    }
    #expect(grant.read() == nil)
  }
}
