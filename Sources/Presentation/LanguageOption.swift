/// A language the person may pick as the source: a BCP-47 tag and, when
/// known, its English name.
package struct LanguageOption: Equatable, Sendable {
  package var tag: String
  package var name: String?

  package init(tag: String, name: String? = nil) {
    self.tag = tag
    self.name = name
  }

  package var title: String { name.map { "\($0) (\(tag))" } ?? tag }
}
