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
