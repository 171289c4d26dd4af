import Core
import System

extension TranslatorSession {
  /// `translate(_:from:to:)`, and when the provider refuses the languages as
  /// asked, once more with its own tags for them, as `ProviderPairs` (the
  /// one matcher of the service, the CLI and the library) finds them in its
  /// pairs: its `es` for `es-ES`, its `en` for `en-US`. Through the
  /// service (`ServiceTranslator`) the service has done so already, with
  /// the same matcher, and its answer is passed on as it is.
  /// - Throws: the provider's failure, or why it cannot translate the pair
  ///   (`notInstalled` with what to install, `unsupported…`).
  package func translateFallingBack(_ texts: [String], from source: String, to target: String) throws(HostError)
    -> [String]
  {
    do {
      return try translate(texts, from: source, to: target)
    } catch  where ProviderPairs.isRefusal(error) && !hasEnded && !(self is ServiceTranslator) {
      guard let pairs = try? languages() else { throw error }
      let tags = try ProviderPairs(pairs).fallback(after: error, from: source, to: target)
      return try translate(texts, from: tags.source, to: tags.target)
    }
  }
}
