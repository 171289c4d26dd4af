import System

/// The preferences file cannot be read or written.
package enum DefaultsError: HostErrorConvertible, Equatable {
  case unreadable(String, reason: String)
  case unwritable(String, reason: String)

  package var description: String {
    switch self {
    case .unreadable(let path, let reason): "\(path): cannot be read: \(reason); fix or remove it"
    case .unwritable(let path, let reason): "\(path): cannot be written: \(reason)"
    }
  }

  package var hostError: HostError { HostError(.failure, description) }
}
