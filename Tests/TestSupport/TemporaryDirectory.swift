import FoundationEssentials

/// A fresh folder under the system's temporary directory, removed on deinit.
package final class TemporaryDirectory: @unchecked Sendable {
  package let path: String

  package init() throws {
    let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
    path = "\(base)/translation-host-tests-\(UUID().uuidString)"
    try FileManager.default.createDirectory(
      atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// Writes `contents` to `name` inside the folder, creating folders on the way.
  @discardableResult
  package func write(_ name: String, _ contents: String) throws -> String {
    try write(name, Data(contents.utf8))
  }

  @discardableResult
  package func write(_ name: String, _ data: Data) throws -> String {
    let file = path + "/" + name
    try FileManager.default.createDirectory(
      atPath: URL(fileURLWithPath: file).deletingLastPathComponent().path, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o755])
    try data.write(to: URL(fileURLWithPath: file))
    return file
  }
}
