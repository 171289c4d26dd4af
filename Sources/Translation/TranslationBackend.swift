import Core
import RunnerProtocol
import Service

/// Where the requests of a `TranslationSession` and a `LanguageAvailability`
/// go. The one backend, `SessionBackend`, holds whichever `TranslatorSession`
/// the shared choice opens: the resident service's, or a runner this
/// process starts.
///
/// A backend speaks the host's vocabulary (BCP-47 tags, `LanguagePairStatus`)
/// and throws the host's errors, each a `HostError` or told as one;
/// `TranslationError` turns those into Apple's by their kind, so a new
/// backend only has to tell its own errors as `HostError`s.
/// `BackendChoice.standard` picks one.
protocol TranslationBackend: Sendable {
  /// Starts what translating needs (the provider), unless it runs already.
  func prepare() async throws

  /// Translates `texts`, all from `source` into `target`; one answer per
  /// text, in order.
  func translate(_ texts: [String], from source: String, to target: String) async throws -> [String]

  /// Every language pair the provider reports, with its status.
  func languagePairs() async throws -> [LanguagePairStatus]

  /// Stops the request in progress at once; may be called from any thread,
  /// also when nothing is in progress. The request fails; the next one
  /// starts afresh.
  func interrupt()

  /// Stops the request in progress as `interrupt()` does, and every later
  /// one, including one already on its way: the session was cancelled.
  func cancel()
}
