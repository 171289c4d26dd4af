/// What a terminal shows for an SF Symbols name (`Label`'s `systemImage`):
/// a character of similar meaning, or the name itself in brackets when
/// there is none, so the information is never lost.
enum SymbolStandIn {
  private static let glyphs: [String: (unicode: String, ascii: String)] = [
    "globe": ("🌐", "(globe)"),
    "character.book.closed": ("📖", "(dictionary)"),
    "book": ("📖", "(book)"),
    "doc.on.doc": ("⧉", "(copy)"),
    "arrow.right": ("→", "->"),
    "arrow.left": ("←", "<-"),
    "arrow.left.arrow.right": ("⇄", "<->"),
    "arrow.triangle.2.circlepath": ("⟳", "(swap)"),
    "checkmark": ("✓", "(ok)"),
    "xmark": ("✗", "(x)"),
    "speaker.wave.2": ("🔊", "(speak)"),
    "star": ("☆", "(star)"),
    "star.fill": ("★", "(star)"),
    "magnifyingglass": ("🔍", "(search)"),
    "square.and.arrow.up": ("⇪", "(share)"),
    "pencil": ("✎", "(edit)"),
    "exclamationmark.triangle": ("⚠", "(!)"),
    "info.circle": ("ⓘ", "(i)"),
    "gear": ("⚙", "(settings)"),
  ]

  /// The stand-in for `name`, drawn with `unicode` characters or ASCII only.
  static func text(for name: String, unicode: Bool) -> String {
    let base = name.hasSuffix(".fill") && glyphs[name] == nil ? String(name.dropLast(5)) : name
    guard let glyph = glyphs[base] else { return "[\(TextWrapper.sanitized(name))]" }
    return unicode ? glyph.unicode : glyph.ascii
  }
}
