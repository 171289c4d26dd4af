/// The service protocol: what a client and `translation-host serve` say over
/// the per-user socket, one message per frame (`FrameChannel`, `WireFormat`).
/// The client's first request is `hello`; the service answers every request
/// with exactly one `ServiceReply`, in order.
package enum ServiceProtocol {
  /// Bumped on any incompatible change to the messages below.
  package static let version = 1
}

/// A request from a client.
///
/// `provider` is a reference as `--provider` takes it (an identifier, a name
/// or an absolute bundle path) or nil for the default provider; `timeout`
/// is the seconds the provider may take, as `--timeout`.
package enum ServiceRequest: Sendable, Equatable {
  /// Must come first. `context` is the client's `ServiceContext`; a service
  /// that sees other folders answers anyway, and the client decides.
  case hello(protocolVersion: Int, context: String)
  /// Resolve the provider and warm a runner; answered with `session`.
  case openSession(provider: String?, timeout: Double)
  /// Translate a batch headlessly; answered with `translations`.
  case translate(provider: String?, timeout: Double, source: String, target: String, texts: [String])
  /// List the provider's language pairs; answered with `languages`.
  case languages(provider: String?, timeout: Double)
  /// Detect the language of a text; answered with `detection`.
  case detect(text: String)
  /// Pin a runner to this connection and open its scene; answered with `scene`.
  case openScene(
    provider: String?, timeout: Double, inputText: String?, allowsReplacement: Bool, sourceLanguage: String?,
    targetLanguage: String?)
  /// Scene requests on the pinned runner; each answered with `scene`.
  case performAction(id: String)
  case setText(id: String, value: String)
  case render
  /// Wait up to `milliseconds` for the provider to finish or redraw.
  case waitForChange(milliseconds: Int)
  /// What the provider sent since the last request, without waiting; answered with `change`.
  case takeChange
  /// Destroy the scene and give the runner back; answered with `done`.
  case closeScene
}

/// The service's answer to one request.
package enum ServiceReply: Sendable, Equatable {
  /// The service's protocol version and `ServiceContext`.
  case hello(protocolVersion: Int, context: String)
  /// The resolved bundle, its capabilities, and the notices resolution printed (in order).
  case session(bundle: ProviderBundle, capabilities: [String], notices: [String])
  case translations([String])
  case languages([LanguagePairStatus])
  case detection(LanguageDetection)
  case scene(SceneUpdate)
  /// The scene's new state if it changed on its own, and whether the
  /// provider has asked for more room.
  case change(SceneUpdate?, expandedSheet: Bool)
  case done
  case failure(ServiceFailure)
}

/// A failure as it travels: runner and registry errors whole, so that the
/// client throws exactly what the direct path would; everything else as a
/// `ServiceError`.
package enum ServiceFailure: Error, Sendable, Equatable {
  case runner(RunnerError)
  case registry(RegistryError)
  case service(ServiceError)

  /// The failure to send for `error`, whatever its domain.
  package init(_ error: any Error) {
    switch error {
    case let error as RunnerError: self = .runner(error)
    case let error as RegistryError: self = .registry(error)
    case let error as ServiceError: self = .service(error)
    case let error as ServiceFailure: self = error
    case let error as ManifestError: self = .service(.remote(.unavailable, error.description))
    case let error as SandboxError: self = .service(.remote(.usage, error.description))
    case let error as SettingsError:
      switch error {
      case .unknownKey, .wrongType: self = .service(.remote(.usage, error.description))
      case .unreadable, .unwritable: self = .service(.remote(.failure, error.description))
      }
    case let error as CustomStringConvertible: self = .service(.remote(.failure, error.description))
    default: self = .service(.remote(.failure, "\(error)"))
    }
  }

  /// The error the client throws.
  package var error: any Error {
    switch self {
    case .runner(let error): error
    case .registry(let error): error
    case .service(let error): error
    }
  }

  /// As a `RunnerError`, for the typed throws of `ProviderSession`.
  package var runnerError: RunnerError {
    switch self {
    case .runner(let error): error
    case .registry(let error): .serviceFailed(.remote(.unavailable, error.description))
    case .service(let error): .serviceFailed(error)
    }
  }
}
