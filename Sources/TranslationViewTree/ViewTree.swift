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
  /// True while work the scene started when it appeared (SwiftUI's `.task`)
  /// has not finished: the scene will draw again when it has, so a scripted
  /// press waits before it judges a disabled or missing button. Absent
  /// (nil) means settled.
  package var settling: Bool?

  package init(root: ViewNode, settling: Bool = false) {
    self.version = Self.currentVersion
    self.root = root
    self.settling = settling ? true : nil
  }

  /// Whether the scene said it is still settling.
  package var isSettling: Bool { settling == true }

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
