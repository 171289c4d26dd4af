import Foundation

extension Locale.Language {
  /// The language a provider's BCP-47 tag names.
  ///
  /// Foundation keeps only language, script and region, so `en-x-rot13`
  /// would become `en` and two of a provider's languages would merge; a tag
  /// with private-use or variant subtags is kept whole as the language code
  /// instead (`languageTag` gives it back unchanged).
  package init(languageTag tag: String) {
    let subtags = tag.split(separator: "-", omittingEmptySubsequences: false).dropFirst()
    let isScriptOrRegion = { (subtag: Substring) in
      (subtag.count == 4 && subtag.allSatisfy(\.isLetter)) || (subtag.count == 2 && subtag.allSatisfy(\.isLetter))
        || (subtag.count == 3 && subtag.allSatisfy(\.isNumber))
    }
    if subtags.allSatisfy(isScriptOrRegion) {
      self.init(identifier: tag)
    } else {
      self.init(languageCode: Locale.LanguageCode(tag), script: nil, region: nil)
    }
  }

  /// The BCP-47 tag to ask a provider for: the language, its script when
  /// Foundation would not infer it, and the region when there is one.
  var languageTag: String {
    guard let code = languageCode?.identifier else { return minimalIdentifier }
    if code.contains("-") { return code }
    var tag = code
    if let script, minimalIdentifier.split(separator: "-").contains(Substring(script.identifier)) {
      tag += "-" + script.identifier
    }
    if let region { tag += "-" + region.identifier }
    return tag
  }
}
