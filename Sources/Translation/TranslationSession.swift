import Core
import Foundation
import RunnerProtocol
import Service
import Synchronization
import System

/// Translates text with the user's default provider, as Apple's
/// `TranslationSession` created with `init(installedSource:target:)`.
///
/// The provider runs in its own sandboxed process: a warm one of the
/// resident service (`translation-host serve`) when it is running, or one
/// started on the first request and kept for the session's life, so later
/// requests are fast. A provider that crashes fails that request with
/// `internalError`; the next request starts it again. A session may be shared between tasks; requests
/// are served one at a time.
public final class TranslationSession: Sendable {
  /// The language translated from, or nil when it is detected in each
  /// batch (a session of a configuration without a source).
  public let sourceLanguage: Locale.Language?
  /// The language translated into, or nil for the user's preferred language
  /// that is not the source, chosen at each request. Not updated after a
  /// translation; `Response.targetLanguage` says which was used.
  public let targetLanguage: Locale.Language?
  /// The models the session prefers (iOS 26.4); the provider serves both
  /// strategies alike (`Strategy`).
  public let preferredStrategy: Strategy

  private let source: Locale.Language?
  private let backend: any TranslationBackend
  private let state = Mutex(State())

  private struct State {
    var isCancelled = false
    /// The provider's tags for a requested pair (`en-GB>es` → `en`, `es`),
    /// once a translation with them succeeded.
    var providerTags: [String: (source: String, target: String)] = [:]
  }

  /// A session that translates from `installedSource` into `target` (nil:
  /// the user's preferred language that is not the source) with the default
  /// provider, without any user interface. It cannot install languages:
  /// a pair the provider only supports throws `notInstalled`.
  public convenience init(installedSource: Locale.Language, target: Locale.Language?) {
    self.init(installedSource: installedSource, target: target, preferredStrategy: .lowLatency)
  }

  /// `init(installedSource:target:)` preferring `preferredStrategy`'s models (iOS 26.4).
  public convenience init(installedSource: Locale.Language, target: Locale.Language?, preferredStrategy: Strategy) {
    self.init(
      source: installedSource, target: target, preferredStrategy: preferredStrategy, backend: BackendChoice.standard())
  }

  /// The session `translationTask` hands its action for `configuration`.
  convenience init(configuration: Configuration, backend: any TranslationBackend = BackendChoice.standard()) {
    self.init(
      source: configuration.source, target: configuration.target, preferredStrategy: configuration.preferredStrategy,
      backend: backend)
  }

  /// A session with the provider `provider` names (a bundle id, name or
  /// path), through the service that `serviceEnvironment` finds running, or
  /// always directly when it is nil; each request may take `timeout`.
  package convenience init(
    installedSource: Locale.Language, target: Locale.Language?, provider: String,
    serviceEnvironment: [String: String]? = nil, timeout: Duration = SessionBackend.defaultTimeout
  ) {
    self.init(
      installedSource: installedSource, target: target,
      backend: SessionBackend(provider: provider, serviceEnvironment: serviceEnvironment, timeout: timeout))
  }

  convenience init(installedSource: Locale.Language, target: Locale.Language?, backend: any TranslationBackend) {
    self.init(source: installedSource, target: target, preferredStrategy: .lowLatency, backend: backend)
  }

  init(source: Locale.Language?, target: Locale.Language?, preferredStrategy: Strategy, backend: any TranslationBackend) {
    self.source = source
    sourceLanguage = source
    targetLanguage = target
    self.preferredStrategy = preferredStrategy
    self.backend = backend
  }

  /// Always false: this session cannot install languages (as Apple's
  /// `installedSource` sessions).
  public var canRequestDownloads: Bool { false }

  /// Whether the provider has the session's pair installed.
  public var isReady: Bool {
    get async {
      guard !isCancelled, let source, let target = try? target(for: source), let pairs = try? await backend.languagePairs()
      else { return false }
      return ProviderLanguages(pairs: pairs).status(from: source, to: target) == .installed
    }
  }

  /// Starts the provider and checks that it translates the session's pair,
  /// so that the first translation is fast.
  /// - Throws: `notInstalled` (with what to install) or `unsupported…`
  ///   when the pair cannot be translated; `internalError` when the
  ///   provider cannot start; `unableToIdentifyLanguage` for a session
  ///   without a source language, as Apple's.
  public func prepareTranslation() async throws {
    try await perform {
      guard let source = self.source else {
        throw TranslationError.unableToIdentifyLanguage.because(
          "the session has no source language to prepare; it is detected in each text translated")
      }
      let target = try self.target(for: source)
      try await self.backend.prepare()
      if let refusal = ProviderLanguages(pairs: try await self.backend.languagePairs()).refusal(from: source, to: target) {
        throw refusal
      }
    }
  }

  /// Translates one string.
  /// - Throws: `TranslationError`: `nothingToTranslate` for an empty string,
  ///   `unsupported…` or `notInstalled` for a pair the provider cannot
  ///   translate, `internalError` when the provider fails,
  ///   `alreadyCancelled` after `cancel()`.
  public func translate(_ string: String) async throws -> Response {
    guard !string.isEmpty || isCancelled else {
      throw TranslationError.nothingToTranslate.because("the text is empty")
    }
    return try await responses(to: [Request(sourceText: string)])[0]
  }

  /// Translates a batch and returns every response at once, in request
  /// order. An empty request gets an empty translation.
  public func translations(from batch: [Request]) async throws -> [Response] {
    try await responses(to: batch)
  }

  /// Translates a batch, the responses arriving in request order as each
  /// becomes available.
  public func translate(batch: [Request]) -> BatchResponse {
    BatchResponse(session: self, requests: batch)
  }

  /// Stops the translation in progress (it throws `alreadyCancelled`) and
  /// ends the session: every later request throws `alreadyCancelled`.
  public func cancel() {
    state.withLock { $0.isCancelled = true }
    backend.cancel()
  }

  // MARK: Requests

  /// The responses to `requests`, in order, from one request to the provider.
  func responses(to requests: [Request]) async throws -> [Response] {
    try await perform {
      let texts = requests.map(\.sourceText).filter { !$0.isEmpty }
      // Nothing to detect in a batch of empty texts: its responses are empty whatever the language.
      let source = try self.source ?? (texts.isEmpty ? Locale.Language(identifier: "und") : Self.detectedSource(of: texts))
      let target = try self.target(for: source)
      var translations = texts.isEmpty ? [] : try await self.translated(texts, from: source, into: target)[...]
      return requests.map { request in
        let translation = request.sourceText.isEmpty ? "" : translations.removeFirst()
        return Response(
          sourceLanguage: source, targetLanguage: target, sourceText: request.sourceText, targetText: translation,
          clientIdentifier: request.clientIdentifier)
      }
    }
  }

  /// `texts` translated by the provider. The session's languages go as
  /// they are; when the provider refuses them, its list of pairs decides:
  /// the same languages under its own tags (`en` for `en-GB`), or the
  /// precise reason it cannot translate them.
  private func translated(_ texts: [String], from source: Locale.Language, into target: Locale.Language) async throws
    -> [String]
  {
    let requested = (source: source.languageTag, target: target.languageTag)
    let key = requested.source + ">" + requested.target
    if let tags = state.withLock({ $0.providerTags[key] }) {
      return try await backend.translate(texts, from: tags.source, to: tags.target)
    }
    if LanguageTag.isSameLanguage(requested.source, requested.target) {
      throw TranslationError.unsupportedLanguagePairing.because(
        "'\(requested.source)' → '\(requested.target)' is one language; choose another target")
    }
    let tags: (source: String, target: String)
    let translations: [String]
    do {
      translations = try await backend.translate(texts, from: requested.source, to: requested.target)
      tags = requested
    } catch let error as HostError {
      guard ProviderPairs.isRefusal(error), let pairs = try? await backend.languagePairs() else { throw error }
      tags = try ProviderLanguages(pairs: pairs).fallback(after: error, from: requested)
      translations = try await backend.translate(texts, from: tags.source, to: tags.target)
    }
    state.withLock { $0.providerTags[key] = tags }
    return translations
  }

  /// The language of a batch for a session without a source: detected in
  /// its texts together (a batch is in one language, as Apple's are).
  private static func detectedSource(of texts: [String]) throws -> Locale.Language {
    Locale.Language(languageTag: try RequestLanguages.source(of: texts))
  }

  /// The target of a request: the session's, or the user's preferred language that is not the source.
  private func target(for source: Locale.Language) throws -> Locale.Language {
    if let targetLanguage { return targetLanguage }
    guard let target = LanguageAvailability.preferredTarget(for: source) else {
      throw TranslationError.unsupportedTargetLanguage.because(
        "the session has no target, and no preferred language other than '\(source.languageTag)' is set in LANGUAGE, LC_ALL, LC_MESSAGES or LANG; give the session a target"
      )
    }
    return target
  }

  private var isCancelled: Bool { state.withLock(\.isCancelled) }

  /// Runs `work` unless the session was cancelled; a cancelled task or
  /// session interrupts the provider. Errors leave as `TranslationError`
  /// (or `CancellationError` for a cancelled task). A cancellation that
  /// came while `work` ran wins over its result, even when `work` returned:
  /// between two requests to the provider there may be nothing to
  /// interrupt.
  private func perform<T: Sendable>(_ work: () async throws -> T) async throws -> T {
    let cancelled = TranslationError.alreadyCancelled.because(
      "the session was cancelled with cancel(); create a new TranslationSession")
    guard !isCancelled else { throw cancelled }
    let result: T
    do {
      try Task.checkCancellation()
      result = try await withTaskCancellationHandler(operation: work, onCancel: { [backend] in backend.interrupt() })
    } catch {
      if isCancelled { throw cancelled }
      if Task.isCancelled { throw CancellationError() }
      throw TranslationError.translating(error)
    }
    if isCancelled { throw cancelled }
    try Task.checkCancellation()
    return result
  }
}
