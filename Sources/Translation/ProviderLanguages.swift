import Foundation
import RunnerProtocol

/// The language pairs a provider reported, and the questions the library
/// asks of them: whether a requested pair is served, by which of the
/// provider's own tags, and if not, why.
struct ProviderLanguages: Sendable {
  let pairs: [LanguagePairStatus]

  /// The pair that serves `source` → `target`: installed before supported
  /// before unsupported, and among those, one with both tags exactly as
  /// requested first.
  func pair(from source: Locale.Language, to target: Locale.Language) -> LanguagePairStatus? {
    guard !source.isSameLanguage(as: target) else { return nil }
    let exact = (source.languageTag.lowercased(), target.languageTag.lowercased())
    return pairs.filter {
      Locale.Language(languageTag: $0.source).serves(source) && Locale.Language(languageTag: $0.target).serves(target)
    }.min { rank($0, exact) < rank($1, exact) }
  }

  /// Apple's `LanguageAvailability.Status` of `source` → `target`.
  func status(from source: Locale.Language, to target: Locale.Language) -> LanguageAvailability.Status {
    switch pair(from: source, to: target)?.availability {
    case .installed: .installed
    case .supported: .supported
    case .unsupported, nil: .unsupported
    }
  }

  /// Every language in a pair that is installed or supported, once, in the
  /// provider's order: two tags that name one language (`es-ES` and
  /// `es_es`, a region given twice) are listed once, as the first.
  var languages: [Locale.Language] {
    var seen: Set<String> = []
    return pairs.filter { $0.availability != .unsupported }.flatMap { [$0.source, $0.target] }
      .map(Locale.Language.init(languageTag:))
      .filter { seen.insert($0.languageTag.lowercased()).inserted }
  }

  /// Why `source` → `target` cannot be translated now, or nil when it can.
  func refusal(from source: Locale.Language, to target: Locale.Language) -> TranslationError? {
    let request = "'\(source.languageTag)' → '\(target.languageTag)'"
    if source.isSameLanguage(as: target) {
      return .unsupportedLanguagePairing.because("\(request) is one language")
    }
    if let pair = pair(from: source, to: target) {
      switch pair.availability {
      case .installed: return nil
      case .supported:
        let how = pair.note.isEmpty ? "install it for the provider" : pair.note
        return .notInstalled.because("the provider supports \(request) but it is not installed; \(how)")
      case .unsupported: return .unsupportedLanguagePairing.because("the provider does not translate \(request)")
      }
    }
    if !pairs.contains(where: { Locale.Language(languageTag: $0.source).serves(source) }) {
      return .unsupportedSourceLanguage.because("the provider does not translate from '\(source.languageTag)'")
    }
    if !pairs.contains(where: { Locale.Language(languageTag: $0.target).serves(target) }) {
      return .unsupportedTargetLanguage.because("the provider does not translate into '\(target.languageTag)'")
    }
    return .unsupportedLanguagePairing.because("the provider does not translate \(request)")
  }

  private func rank(_ pair: LanguagePairStatus, _ exact: (String, String)) -> Int {
    let isExact = (pair.source.lowercased(), pair.target.lowercased()) == exact
    let availability: Int =
      switch pair.availability {
      case .installed: 0
      case .supported: 1
      case .unsupported: 2
      }
    return availability * 2 + (isExact ? 0 : 1)
  }
}
