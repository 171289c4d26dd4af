import FoundationEssentials

/// The one rule for filling in the languages of a translation request that
/// leaves them out, as Apple's framework does: the source is detected in the
/// texts together (a batch is in one language), reliably or not at all; the
/// target is the user's preferred language that is not the source. The CLI,
/// the library, both popovers and both transports of the service use it.
package enum RequestLanguages {
  /// `source` and `target`, each filled in when nil or empty.
  /// - Throws: `LanguageError.unableToIdentifyLanguage` when the source
  ///   cannot be detected reliably, `.noTargetLanguage` when no preferred
  ///   language other than the source is set.
  package static func fill(
    source: String?, target: String?, texts: [String],
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(LanguageError) -> (source: String, target: String) {
    let detected: String
    if let given = source.nonEmpty { detected = given } else { detected = try self.source(of: texts) }
    guard let target = target.nonEmpty ?? self.target(for: detected, environment: environment) else {
      throw .noTargetLanguage(source: detected)
    }
    return (detected, target)
  }

  /// The language detected in `texts` together (joined by line feeds).
  package static func source(of texts: [String]) throws(LanguageError) -> String {
    try LanguageDetector.sourceLanguage(of: texts.joined(separator: "\n"))
  }

  /// The user's preferred language that is not the language of `source`, or nil.
  package static func target(
    for source: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String? {
    PreferredLanguages.target(for: source, environment: environment)
  }
}

extension Optional where Wrapped == String {
  fileprivate var nonEmpty: String? {
    guard let self, !self.isEmpty else { return nil }
    return self
  }
}
