import Core
import RunnerProtocol
import System
import Testing

/// The one matcher of a provider's pairs, which the service, the CLI and the
/// library share: which pair serves a request, and why none does.
@Suite struct ProviderPairsTests {
  static let pairs = ProviderPairs([
    LanguagePairStatus(source: "en", target: "es", availability: .installed, note: ""),
    LanguagePairStatus(source: "en", target: "ca", availability: .supported, note: "install the Debian package apertium-eng-cat"),
    LanguagePairStatus(source: "es", target: "fr", availability: .supported, note: ""),
    LanguagePairStatus(source: "en-US", target: "de", availability: .installed, note: ""),
  ])

  /// (source, target, the pair's tags or nil).
  @Test(arguments: [
    ("en_US.UTF-8", "es-ES", "en>es" as String?), ("EN", "es_MX", "en>es"), ("en-GB", "es", "en>es"), ("en", "ca-ES", "en>ca"),
    ("en-US", "de", "en-US>de"), ("en", "de", nil), ("en", "en-GB", nil), ("en", "fr", nil),
  ])
  func thePairThatServesARequest(_ source: String, _ target: String, _ pair: String?) {
    #expect(Self.pairs.pair(from: source, to: target).map { "\($0.source)>\($0.target)" } == pair)
  }

  /// (source, target, the refusal's kind, a part of its message); nil: it can be translated.
  @Test(arguments: [
    ("en_US", "es-ES", nil as HostError.Kind?, ""), ("en", "ca", .notInstalled, "apertium-eng-cat"),
    ("en", "en-GB", .unsupportedLanguagePairing, "is one language"), ("xx", "es", .unsupportedSourceLanguage, "from 'xx'"),
    ("en", "xx", .unsupportedTargetLanguage, "into 'xx'"), ("en", "fr", .unsupportedLanguagePairing, "'en' → 'fr'"),
  ])
  func whyARequestCannotBeTranslated(_ source: String, _ target: String, _ kind: HostError.Kind?, _ message: String) {
    let refusal = Self.pairs.refusal(from: source, to: target)
    #expect(refusal?.kind == kind)
    #expect(refusal?.message.contains(message) ?? true, "\(String(describing: refusal))")
  }

  /// After the provider refused the tags as asked: its own tags for them, or why not.
  @Test func afterARefusalTheProvidersOwnTagsOrWhyNot() throws {
    let refused = HostError(.unsupportedTargetLanguage, "the provider's own words")
    #expect(try Self.pairs.fallback(after: refused, from: "en-US", to: "es-ES") == ("en", "es"))
    #expect(throws: HostError.self) { try Self.pairs.fallback(after: refused, from: "en", to: "es") }
    let notInstalled = #expect(throws: HostError.self) {
      try Self.pairs.fallback(after: refused, from: "en", to: "ca_ES", provider: "org.example.p")
    }
    #expect(notInstalled?.kind == .notInstalled)
    #expect(notInstalled?.message.hasPrefix("provider 'org.example.p' supports 'en' → 'ca_ES'") == true)
    // A provider that lists no pairs keeps its own word.
    let own = #expect(throws: HostError.self) { try ProviderPairs([]).fallback(after: refused, from: "en", to: "es-ES") }
    #expect(own == refused)
  }

  @Test func eachLanguageIsListedOnce() {
    let pairs = ProviderPairs([
      LanguagePairStatus(source: "es-ES", target: "en", availability: .installed, note: ""),
      LanguagePairStatus(source: "es_es", target: "ca", availability: .supported, note: ""),
      LanguagePairStatus(source: "en", target: "fr", availability: .unsupported, note: ""),
    ])
    #expect(pairs.languages == ["es-ES", "en", "ca"])
  }
}
