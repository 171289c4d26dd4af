/// A view tree that a provider produced and the host cannot use.
package enum ViewTreeError: Error, Equatable, CustomStringConvertible {
  /// The JSON is not a view tree; `path` locates the offending node.
  case malformed(path: String, reason: String)
  /// The document declares a schema version this host does not read.
  case unsupportedVersion(Int)
  /// Two controls share one id, so actions could not be told apart.
  case duplicateID(String, path: String)
  /// Nesting deeper than `ViewNode.maximumDepth`.
  case tooDeep(path: String)
  /// The document is not JSON: `offset` is the byte where it goes wrong, `snippet` the bytes around it.
  case invalidJSON(offset: Int, snippet: String, reason: String)

  /// The error of a decoding failure, its path written as every other path
  /// of a view tree is: the node's position (`root.2.0`), then the key
  /// (`root.2.label`), never the `children` key between them.
  init(decoding error: DecodingError) {
    func path(_ context: DecodingError.Context) -> String {
      context.codingPath.compactMap { key -> String? in
        if let index = key.intValue { return String(index) }
        return key.stringValue == "children" ? nil : key.stringValue
      }.joined(separator: ".")
    }
    switch error {
    case .keyNotFound(let key, let context):
      self = .malformed(path: path(context), reason: "missing key '\(key.stringValue)'")
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
      self = .malformed(path: path(context), reason: context.debugDescription)
    @unknown default:
      self = .malformed(path: "", reason: "\(error)")
    }
  }

  package var description: String {
    switch self {
    case .malformed(let path, let reason):
      "malformed view tree at '\(path.isEmpty ? "(document)" : path)': \(reason)"
    case .unsupportedVersion(let version):
      "view tree version \(version) is not supported (this host reads version \(ViewTree.currentVersion))"
    case .duplicateID(let id, let path):
      "view tree has two controls with id '\(id)' (second at '\(path)'); give each control its own id"
    case .tooDeep(let path):
      "view tree is nested deeper than \(ViewNode.maximumDepth) levels at '\(path)'"
    case .invalidJSON(let offset, let snippet, let reason):
      "view tree is not JSON at byte \(offset): \(reason), near \(snippet); escape '\"', '\\' and control characters in strings"
    }
  }
}
