/// A language the person may pick as the source: a BCP-47 tag and, when
/// known, its English name.
struct LanguageOption: Equatable, Sendable {
  var tag: String
  var name: String?

  init(tag: String, name: String? = nil) {
    self.tag = tag
    self.name = name
  }

  var title: String { name.map { "\($0) (\(tag))" } ?? tag }
}
