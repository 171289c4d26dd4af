import Core
import FoundationEssentials
import Service
import System

/// Answers the D-Bus interface's calls with the service's own runners: the
/// same resolution, pool and deadlines as a request on the service's socket,
/// so a D-Bus caller gets what `translation-host translate` prints.
struct BusRequests: Sendable {
  /// The deadline of a provider request made for a D-Bus call (the CLI's default `--timeout`).
  static let timeout = Duration.seconds(30)
  /// The most text one call may carry, as for the CLI's input.
  static let maximumTextBytes = 4 * 1024 * 1024

  let server: ServiceServer
  let presentation: BusPresentation

  /// The answer to `call`, blocking until the provider answers.
  func answer(_ call: BusCall, caller: BusCaller) throws(BusError) -> BusReply {
    do {
      switch call {
      case .translate(let texts, let source, let target, let provider):
        return .translations(try translate(texts, source: source, target: target, provider: provider))
      case .languages(let provider):
        let resolution = try server.resolutions.resolve(provider.isEmpty ? nil : provider)
        let pairs = try withRunner(resolution) { try $0.languages() }
        return .pairs(pairs.map { [$0.source, $0.target, $0.availability.rawValue] })
      case .detect(let text):
        try Self.checkSize([text])
        let detection = LanguageDetector.detect(text)
        return .detection(tag: detection.tag ?? "", confidence: Double(detection.confidence) / 100, reliable: detection.reliable)
      case .present(let request):
        let (response, replacement) = try presentation.present(request, for: caller)
        return .presented(response: response, replacement: replacement)
      }
    } catch let error as BusError {
      throw error
    } catch {
      throw BusError(HostError(error))
    }
  }

  private func translate(_ texts: [String], source: String, target: String, provider: String) throws -> [String] {
    try Self.checkSize(texts)
    let nonEmpty = texts.filter { !$0.isEmpty }
    guard !nonEmpty.isEmpty else { return texts }
    let source = source.isEmpty ? try LanguageDetector.sourceLanguage(of: nonEmpty.joined(separator: "\n")) : source
    let target = target.isEmpty ? PreferredLanguages.target(for: source, environment: server.environment) : target
    guard let target else {
      throw BusError.invalidArguments(
        "no target language was given, and the service has no preferred language other than '\(source)' (LANGUAGE, LC_ALL, LC_MESSAGES, LANG); pass one such as 'es'"
      )
    }
    let resolution = try server.resolutions.resolve(provider.isEmpty ? nil : provider)
    var translations = try withRunner(resolution) { try $0.translate(nonEmpty, from: source, to: target) }[...]
    return texts.map { $0.isEmpty ? "" : translations.removeFirst() }
  }

  private static func checkSize(_ texts: [String]) throws(BusError) {
    let bytes = texts.reduce(0) { $0 + $1.utf8.count }
    guard bytes <= maximumTextBytes else {
      throw .named("InvalidText", "the text is \(bytes) bytes, more than the \(maximumTextBytes)-byte limit; send it in parts")
    }
  }

  /// Runs `body` on a runner of the pool, and gives the runner back whatever happens.
  private func withRunner<T>(_ resolution: ResolutionCache.Resolution, _ body: (RunnerClient) throws -> T) throws -> T {
    let runner = try server.pool.checkout(resolution, timeout: Self.timeout)
    defer { server.pool.checkin(runner, key: resolution.key) }
    return try body(runner)
  }

  // MARK: Properties

  /// `DefaultProvider`: the identifier `run` and `translate` would use, or "".
  func defaultProvider() -> String {
    (try? server.resolutions.resolve(nil).bundle.identifier) ?? ""
  }

  /// `Providers`: (identifier, display name, path) of each provider that may run.
  func providers() -> [[String]] {
    ProviderRegistry.standard(environment: server.environment).scan().entries.compactMap { entry in
      guard entry.isUsable, let manifest = entry.manifest else { return nil }
      return [manifest.identifier, manifest.displayName, manifest.path]
    }
  }
}
