import FoundationEssentials

/// A scene's view tree as it crosses the provider ABI: the JSON document a
/// scene's `render` returns (schema: `Documentation/ABI.md`).
package struct ViewTree: Codable, Equatable, Sendable {
  /// The only schema version this build reads and writes.
  package static let currentVersion = 1

  /// The schema version of this document.
  package var version: Int
  /// The top of the tree.
  package var root: ViewNode

  package init(root: ViewNode) {
    self.version = Self.currentVersion
    self.root = root
  }

  /// Encodes the tree as a compact JSON document.
  package func jsonData() throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(self))
  }

  /// Decodes and checks a document.
  /// - Throws: `ViewTreeError` naming what is wrong and where.
  package static func decode(_ json: some Collection<UInt8>) throws(ViewTreeError) -> ViewTree {
    let bytes = Array(json)
    if let failure = JSONSyntax.firstError(in: bytes) {
      throw .invalidJSON(
        offset: failure.offset, snippet: JSONSyntax.snippet(of: bytes, at: failure.offset), reason: failure.reason)
    }
    let tree: ViewTree
    do {
      tree = try JSONDecoder().decode(ViewTree.self, from: Data(bytes))
    } catch let error as DecodingError {
      throw ViewTreeError(decoding: error)
    } catch {
      throw ViewTreeError.malformed(path: "", reason: "\(error)")
    }
    guard tree.version == currentVersion else {
      throw .unsupportedVersion(tree.version)
    }
    var ids = ControlIDs()
    try tree.root.validate(path: "root", ids: &ids)
    return tree
  }
}
