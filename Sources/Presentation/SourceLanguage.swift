import Core
import Service

/// The language of the text as a popover starts.
package enum SourceLanguage: Equatable, Sendable {
  /// Given or detected (nil: the provider does not need one).
  case known(String?)
  /// Not detected: the person picks one of `options` first.
  case ask([LanguageOption])

  /// The source language of `text`: `given`, else a reliable detection,
  /// else a choice among the languages `session`'s provider translates from
  /// (detection's guesses first); a provider that names no languages gets
  /// none and decides itself.
  package static func of(_ text: String, given: String?, session: any SceneSession) throws -> SourceLanguage {
    if let given { return .known(given) }
    if let tag = try? RequestLanguages.source(of: [text]) { return .known(tag) }
    guard session.supports(.translate) else { return .known(nil) }
    let installed = try session.languages().filter { $0.availability == .installed }.map(\.source)
    var options: [LanguageOption] = []
    for candidate in LanguageDetector.detect(text).candidates where installed.contains(candidate.tag) {
      options.append(LanguageOption(tag: candidate.tag, name: candidate.name))
    }
    for tag in Set(installed).sorted() where !options.contains(where: { $0.tag == tag }) {
      options.append(LanguageOption(tag: tag, name: LanguageDetector.name(of: tag)))
    }
    return options.isEmpty ? .known(nil) : .ask(options)
  }
}
