import RunnerProtocol
import System

/// A provider's language pairs, read the one way every path reads them: the
/// service (socket and D-Bus), the CLI with `--no-service`, and the
/// `Translation` library all ask which pair serves a request (tags
/// normalized by `LanguageTag`, a region the provider does not name falling
/// back to its language: its `es` serves `es-ES`, `en_US` is served by
/// `en`), and why a request cannot be translated.
package struct ProviderPairs: Sendable {
  package let pairs: [LanguagePairStatus]

  package init(_ pairs: [LanguagePairStatus]) {
    self.pairs = pairs
  }

  /// The pair that serves `source` → `target`: installed before supported
  /// before unsupported, and among those one that names both tags as
  /// requested first; nil for none, or for one language on both sides.
  package func pair(from source: String, to target: String) -> LanguagePairStatus? {
    guard !LanguageTag.isSameLanguage(source, target) else { return nil }
    let exact = (LanguageTag.normalized(source).lowercased(), LanguageTag.normalized(target).lowercased())
    return pairs.filter { LanguageTag.serves($0.source, source) && LanguageTag.serves($0.target, target) }
      .min { rank($0, exact) < rank($1, exact) }
  }

  /// Apple's `LanguageAvailability.Status` of `source` → `target`, as the provider's own (unsupported for none).
  package func status(from source: String, to target: String) -> LanguagePairStatus.Availability {
    pair(from: source, to: target)?.availability ?? .unsupported
  }

  /// Every language in a pair that is installed or supported, once, in the
  /// provider's order: two tags that name one language (`es-ES` and
  /// `es_es`) are listed once, as the first.
  package var languages: [String] {
    var seen: Set<String> = []
    return pairs.filter { $0.availability != .unsupported }.flatMap { [$0.source, $0.target] }
      .filter { seen.insert(LanguageTag.normalized($0).lowercased()).inserted }
  }

  /// Why `source` → `target` cannot be translated now, or nil when it can;
  /// `provider` (its identifier) is named in the message when given.
  package func refusal(from source: String, to target: String, provider: String? = nil) -> HostError? {
    let request = "'\(source)' → '\(target)'"
    let who = provider.map { "provider '\($0)'" } ?? "the provider"
    if LanguageTag.isSameLanguage(source, target) {
      return HostError(.unsupportedLanguagePairing, "\(request) is one language; choose another target")
    }
    if let pair = pair(from: source, to: target) {
      switch pair.availability {
      case .installed: return nil
      case .supported:
        let how = pair.note.isEmpty ? "install it for the provider" : pair.note
        return HostError(.notInstalled, "\(who) supports \(request) but it is not installed; \(how)")
      case .unsupported: return HostError(.unsupportedLanguagePairing, "\(who) does not translate \(request)")
      }
    }
    if !pairs.contains(where: { LanguageTag.serves($0.source, source) }) {
      return HostError(.unsupportedSourceLanguage, "\(who) does not translate from '\(source)'")
    }
    if !pairs.contains(where: { LanguageTag.serves($0.target, target) }) {
      return HostError(.unsupportedTargetLanguage, "\(who) does not translate into '\(target)'")
    }
    return HostError(.unsupportedLanguagePairing, "\(who) does not translate \(request)")
  }

  /// The provider's own tags to ask again with, after it refused `source` →
  /// `target` as asked (`error`): those of its installed pair that serves
  /// them, when they differ from the request's.
  /// - Throws: why the request cannot be translated (`refusal`: not
  ///   installed, and what to install; one language; …), with the
  ///   provider's own words after it; else `error` (also when the provider
  ///   lists no pairs: its own word is all there is).
  package func fallback(
    after error: HostError, from source: String, to target: String, provider: String? = nil
  ) throws(HostError) -> (source: String, target: String) {
    guard !pairs.isEmpty else { throw error }
    if let pair = pair(from: source, to: target), pair.availability == .installed,
      (pair.source, pair.target) != (source, target)
    {
      return (pair.source, pair.target)
    }
    guard let refusal = refusal(from: source, to: target, provider: provider) else { throw error }
    if refusal.kind == .notInstalled || error.message.isEmpty { throw refusal }
    throw HostError(refusal.kind, refusal.message + " (\(error.message))")
  }

  /// Whether `error` is a provider's refusal of the languages (rather than a failure).
  package static func isRefusal(_ error: HostError) -> Bool {
    [.unsupportedSourceLanguage, .unsupportedTargetLanguage, .unsupportedLanguagePairing].contains(error.kind)
  }

  private func rank(_ pair: LanguagePairStatus, _ exact: (String, String)) -> Int {
    let isExact = (LanguageTag.normalized(pair.source).lowercased(), LanguageTag.normalized(pair.target).lowercased()) == exact
    let availability =
      switch pair.availability {
      case .installed: 0
      case .supported: 1
      case .unsupported: 2
      }
    return availability * 2 + (isExact ? 0 : 1)
  }
}
