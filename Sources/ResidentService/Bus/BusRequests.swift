import Core
import FoundationEssentials
import Service
import System

/// Answers the D-Bus interface's calls with the service's own runners: the
/// same resolution, pool and deadlines (`RequestDeadline.standard` unless
/// the call's option `timeout` names another) as a request on the service's socket,
/// so a D-Bus caller gets what `translation-host translate` prints.
struct BusRequests: Sendable {
  /// The most text one call may carry, as for the CLI's input.
  static let maximumTextBytes = 4 * 1024 * 1024

  let server: ServiceServer
  let presentation: BusPresentation

  /// The answer to `call`, blocking until the provider answers; `cancellation`
  /// fires when the caller leaves the bus, which abandons the request.
  func answer(_ call: BusCall, caller: BusCaller, cancellation: Cancellation) throws(BusError) -> BusReply {
    do {
      switch call {
      case .translate(let texts, let source, let target, let provider, _, let timeout):
        do {
          return .translations(
            try translate(
              texts, source: source, target: target, provider: provider, timeout: timeout, cancellation: cancellation))
        } catch  where cancellation.isFired {
          throw BusError.named("Cancelled", "the call was cancelled (CancelTranslate) before its answer")
        }
      case .cancelTranslate:
        return .nothing
      case .languages(let provider):
        let (pairs, _) = try handler.languages(
          provider: provider.nonEmpty, timeout: RequestDeadline.standard, cancellation: cancellation)
        return .pairs(pairs.map { [$0.source, $0.target, $0.availability.rawValue] })
      case .detect(let text):
        try Self.checkSize([text])
        let detection = handler.detect(text)
        return .detection(tag: detection.tag ?? "", confidence: Double(detection.confidence) / 100, reliable: detection.reliable)
      case .present(var request):
        request.timeout = request.timeout.map(handler.clamped)
        let (response, replacement) = try presentation.present(request, cancellation: cancellation)
        return .presented(response: response, replacement: replacement)
      }
    } catch let error as BusError {
      throw error
    } catch {
      throw BusError(HostError(error))
    }
  }

  private var handler: RequestHandler { RequestHandler(server: server) }

  /// Empty texts are answered empty without the provider; the others go
  /// through the service's one request handler, as on the socket.
  private func translate(
    _ texts: [String], source: String, target: String, provider: String, timeout: Duration, cancellation: Cancellation
  ) throws -> [String] {
    try Self.checkSize(texts)
    let nonEmpty = texts.filter { !$0.isEmpty }
    guard !nonEmpty.isEmpty else { return texts }
    let (translated, _) = try handler.translate(
      nonEmpty, from: source.nonEmpty, to: target.nonEmpty, provider: provider.nonEmpty, timeout: timeout,
      cancellation: cancellation)
    var translations = translated[...]
    return texts.map { $0.isEmpty ? "" : translations.removeFirst() }
  }

  private static func checkSize(_ texts: [String]) throws(BusError) {
    let bytes = texts.reduce(0) { $0 + $1.utf8.count }
    guard bytes <= maximumTextBytes else {
      throw .named("InvalidText", "the text is \(bytes) bytes, more than the \(maximumTextBytes)-byte limit; send it in parts")
    }
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

extension String {
  /// Nil for the empty string, which the interface's arguments use for "not given".
  var nonEmpty: String? { isEmpty ? nil : self }
}
