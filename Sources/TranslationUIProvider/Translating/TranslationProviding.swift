/// Headless translation, for providers that can translate without showing a
/// scene (`translation-host translate`, scripts, apps).
///
/// Adopt it on the extension's entry point:
///
/// ```swift
/// @main
/// class Shouting: TranslationUIProviderExtension, TranslationProviding { … }
/// ```
public protocol TranslationProviding {
  /// Translates `texts` from `source` to `target` (BCP-47 tags such as `en`,
  /// `es`, `pt-BR`), returning one translation per text, in order.
  /// - Throws: `TranslationProviderError` for a request it cannot serve.
  func translate(_ texts: [String], from source: String, to target: String) throws -> [String]

  /// The language pairs the provider knows, with their availability.
  /// Pairs not listed are unsupported. Throw when they cannot be known (a
  /// server that does not answer, say) rather than return none.
  var languagePairs: [LanguagePair] { get throws }
}
