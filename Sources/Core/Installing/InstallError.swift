import System

/// Why a bundle could not be installed or removed.
package enum InstallError: HostErrorConvertible, Equatable {
  case invalid(String)
  case unsupportedFile(String)
  case notInUserFolder(String, folder: String)
  case failed(String, reason: String)

  package var description: String {
    switch self {
    case .invalid(let path): "\(path): did not pass validation (see above); fix it, then install again"
    case .unsupportedFile(let path): "\(path): is a symbolic link or special file; a bundle holds only folders and regular files"
    case .notInUserFolder(let path, let folder):
      "\(path): is not in your provider folder \(folder); remove it with the tool that installed it"
    case .failed(let path, let reason): "\(path): \(reason)"
    }
  }

  package var hostError: HostError {
    if case .invalid = self { return HostError(.providerUnavailable, description) }
    return HostError(.failure, description)
  }
}
