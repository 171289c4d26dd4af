/// The freedesktop icon-naming-spec name closest to an SF Symbols name
/// (`Label`'s `systemImage`). A name with no counterpart gets no icon and
/// the label keeps its title, so nothing is lost.
package enum SymbolIcon {
  private static let names: [String: String] = [
    "globe": "applications-internet-symbolic",
    "character.book.closed": "accessories-dictionary-symbolic",
    "book": "accessories-dictionary-symbolic",
    "doc.on.doc": "edit-copy-symbolic",
    "arrow.right": "go-next-symbolic",
    "arrow.left": "go-previous-symbolic",
    "arrow.left.arrow.right": "object-flip-horizontal-symbolic",
    "arrow.triangle.2.circlepath": "view-refresh-symbolic",
    "checkmark": "object-select-symbolic",
    "xmark": "window-close-symbolic",
    "speaker.wave.2": "audio-volume-high-symbolic",
    "star": "non-starred-symbolic",
    "star.fill": "starred-symbolic",
    "magnifyingglass": "edit-find-symbolic",
    "square.and.arrow.up": "document-send-symbolic",
    "pencil": "document-edit-symbolic",
    "exclamationmark.triangle": "dialog-warning-symbolic",
    "info.circle": "dialog-information-symbolic",
    "gear": "emblem-system-symbolic",
    "trash": "user-trash-symbolic",
    "xmark.circle": "window-close-symbolic",
  ]

  /// The icon name for `systemName`; a `.fill` variant without its own entry uses the plain one.
  package static func name(for systemName: String) -> String? {
    if let name = names[systemName] { return name }
    return systemName.hasSuffix(".fill") ? names[String(systemName.dropLast(5))] : nil
  }
}
