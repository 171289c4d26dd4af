import Core
import FoundationEssentials
import Synchronization
import System

/// A container made for one validation of a bundle that does not hold its
/// identifier (`IdentityClaim`): it never sees the holder's files, and what
/// it wrote is removed afterwards.
struct TemporaryContainer {
  let path: String
  private static let count = Atomic<Int>(0)

  /// Makes the folder (and its `tmp`), readable by the user only, beside the providers' containers.
  init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
    let number = Self.count.add(1, ordering: .relaxed).newValue
    path = XDGFolders(environment: environment).data + "/containers/.validating-\(Syscalls.processID)-\(number)"
    try? FileManager.default.removeItem(atPath: path)
    try FileManager.default.createDirectory(
      atPath: path + "/tmp", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
  }

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}
