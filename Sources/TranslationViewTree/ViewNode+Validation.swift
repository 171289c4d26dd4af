extension ViewNode {
  /// The deepest nesting a tree may have; deeper trees are refused rather than
  /// risking the host's stack.
  package static let maximumDepth = 64

  private static let verticalAlignments: Set = ["leading", "center", "trailing"]
  private static let horizontalAlignments: Set = ["top", "center", "bottom"]

  /// Checks what `Codable` cannot: alignments, ranges, unique control ids, depth.
  /// `ids` collects the ids of the controls seen so far, this node's included;
  /// it is one value shared by the whole walk (`ControlIDs` cannot be copied),
  /// so checking a tree costs time in proportion to its size: a provider that
  /// draws 60,000 buttons must not make the host spend quadratic time on them.
  func validate(path: String, ids: inout ControlIDs, depth: Int = 0) throws(ViewTreeError) {
    guard depth < Self.maximumDepth else { throw .tooDeep(path: path) }
    if case .styled = self {} else { ids.countNode() }
    switch self {
    case .styled(let style, let node):
      // A style is part of its node: same path, same depth.
      try Self.check(style: style, path: path)
      return try node.validate(path: path, ids: &ids, depth: depth)
    case .vstack(let alignment, let spacing, _):
      try Self.check(alignment, in: Self.verticalAlignments, path: path)
      try Self.check(spacing: spacing, path: path)
    case .hstack(let alignment, let spacing, _):
      try Self.check(alignment, in: Self.horizontalAlignments, path: path)
      try Self.check(spacing: spacing, path: path)
    case .button(let id, _, _), .textField(let id, _, _, _):
      guard !id.isEmpty else { throw .malformed(path: path, reason: "a control has an empty id") }
      guard ids.insert(id) else { throw .duplicateID(id, path: path) }
    case .progress(_, let fraction?):
      guard fraction.isFinite, (0...1).contains(fraction) else {
        throw .malformed(path: path, reason: "progress fraction \(fraction) is outside 0...1")
      }
    case .progress(_, nil), .text, .label, .spacer, .divider, .scroll, .image, .unknown:
      break
    }
    for (index, child) in children.enumerated() {
      try child.validate(path: "\(path).\(index)", ids: &ids, depth: depth + 1)
    }
  }

  private static func check(_ alignment: String, in allowed: Set<String>, path: String) throws(ViewTreeError) {
    guard allowed.contains(alignment) else {
      throw .malformed(
        path: path,
        reason: "alignment '\(alignment)' is not one of \(allowed.sorted().joined(separator: ", "))")
    }
  }

  /// Only what could hurt a host: numbers it would compute with. Unknown
  /// fonts and colours are a look a host ignores, not an error.
  private static func check(style: ViewStyle, path: String) throws(ViewTreeError) {
    if let padding = style.padding {
      for value in [padding.top, padding.leading, padding.bottom, padding.trailing] where !(value.isFinite && value >= 0) {
        throw .malformed(path: path, reason: "padding \(value) is not a finite, non-negative number of points")
      }
    }
    for value in [style.maxWidth, style.maxHeight].compactMap({ $0 }) where value.isNaN || value < 0 {
      throw .malformed(path: path, reason: "frame size \(value) is not a non-negative number of points or 'infinity'")
    }
  }

  private static func check(spacing: Double?, path: String) throws(ViewTreeError) {
    if let spacing, !(spacing.isFinite && spacing >= 0) {
      throw .malformed(path: path, reason: "spacing \(spacing) is not a finite, non-negative number of points")
    }
  }
}
