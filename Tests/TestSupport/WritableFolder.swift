import FoundationEssentials

/// A folder of the tests' own that they write files into
/// (`TemporaryDirectory`, `PackageBuildFolder`).
package protocol WritableFolder {
  var path: String { get }
}

extension WritableFolder {
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
