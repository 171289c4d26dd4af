import Core
import FoundationEssentials
import RunnerProtocol
import Service
import System

/// The one handler behind both of the service's transports, the socket
/// (`ServiceConnection`) and D-Bus (`BusRequests`): the same resolution,
/// languages filled in by the same rule (`RequestLanguages`), the same
/// coalescing of headless requests (`TranslationCoalescer`), the same
/// deadlines (a caller's own, clamped to `maximumTimeout`) and the same
/// errors (`HostError`). Each transport only reads its requests, tells the
/// handler when its caller left (`Cancellation`: a socket closed, a bus name
/// gone), and writes the answers.
struct RequestHandler: Sendable {
  let server: ServiceServer

  /// The texts translated by the provider that `provider` names (nil: the
  /// default), batched with other callers' requests for the same pair; a
  /// nil or empty language is filled in as `RequestLanguages` says.
  /// `cancellation`, fired when the caller leaves, abandons the request and
  /// stops a runner that works for it alone.
  func translate(
    _ texts: [String], from source: String?, to target: String?, provider: String?, timeout: Duration,
    cancellation: Cancellation
  ) throws -> (translations: [String], notices: [String]) {
    try translate(
      texts, from: source, to: target, resolution: try server.resolutions.resolve(provider), timeout: timeout,
      cancellation: cancellation)
  }

  /// The same, with the provider resolved already; `recent`: the caller's
  /// thread's `RecentRunner` (a socket connection's).
  func translate(
    _ texts: [String], from source: String?, to target: String?, resolution: ResolutionCache.Resolution,
    timeout: Duration, cancellation: Cancellation, recent: RecentRunner? = nil
  ) throws -> (translations: [String], notices: [String]) {
    // An empty batch is the provider's to judge, as on the direct path.
    guard !texts.isEmpty else {
      let (source, target) = (source ?? "", target ?? "")
      let translations = try withRunner(resolution, timeout: timeout, cancellation: cancellation) {
        try $0.translate(texts, from: source, to: target)
      }
      return (translations, resolution.notices)
    }
    defer { cancellation.clear() }
    let languages = try RequestLanguages.fill(source: source, target: target, texts: texts, environment: server.environment)
    let (source, target) = (LanguageTag.normalized(languages.source), LanguageTag.normalized(languages.target))
    let translate = { (source: String, target: String) in
      try server.coalescer.translate(
        texts, from: source, to: target,
        runners: PoolRunners(
          pool: server.pool, resolution: resolution, depth: server.configuration.batchesPerRunner, recent: recent),
        timeout: clamped(timeout), cancellation: cancellation)
    }
    do {
      return (try translate(source, target), resolution.notices)
    } catch  where ProviderPairs.isRefusal(HostError(error)) && !cancellation.isFired {
      // The provider's own list decides, by the matcher the library and the
      // CLI use: its tag for the language (its `es` serves `es-ES`), or why
      // not (not installed, and what to install).
      guard let pairs = try? withRunner(resolution, timeout: timeout, cancellation: cancellation, { try $0.languages() })
      else { throw error }
      // Said as the CLI without the service says it (which knows no identifier here).
      let tags = try ProviderPairs(pairs).fallback(after: HostError(error), from: source, to: target)
      return (try translate(tags.source, tags.target), resolution.notices)
    }
  }

  /// The language pairs of the provider that `provider` names (nil: the default).
  func languages(
    provider: String?, timeout: Duration, cancellation: Cancellation
  ) throws -> (pairs: [LanguagePairStatus], notices: [String]) {
    try languages(resolution: try server.resolutions.resolve(provider), timeout: timeout, cancellation: cancellation)
  }

  /// The same, with the provider resolved already.
  func languages(
    resolution: ResolutionCache.Resolution, timeout: Duration, cancellation: Cancellation
  ) throws -> (pairs: [LanguagePairStatus], notices: [String]) {
    let pairs = try withRunner(resolution, timeout: timeout, cancellation: cancellation) { try $0.languages() }
    return (pairs, resolution.notices)
  }

  /// The language of `text`, as detection sees it.
  func detect(_ text: String) -> LanguageDetection {
    LanguageDetector.detect(text)
  }

  /// Runs `body` on a runner of the pool and gives the runner back whatever
  /// happens: closed, not reused, when the caller left meanwhile (its
  /// runner was stopped).
  func withRunner<T>(
    _ resolution: ResolutionCache.Resolution, timeout: Duration, cancellation: Cancellation,
    _ body: (RunnerClient) throws -> T
  ) throws -> T {
    let runner = try server.pool.checkout(resolution, timeout: clamped(timeout))
    cancellation.onFire(runner.interruption)
    defer {
      cancellation.clear()
      server.pool.checkin(runner, key: resolution.key, reusable: !cancellation.isFired)
    }
    return try body(runner)
  }

  func clamped(_ timeout: Duration) -> Duration { min(timeout, server.configuration.maximumTimeout) }
}
