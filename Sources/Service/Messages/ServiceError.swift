import System

/// Why the resident service could not start, refused a client, could not be
/// reached, or failed a request (`reported`: failures of other domains
/// travel from the service to its clients as the `HostError` they are told as).
package enum ServiceError: HostErrorConvertible, Equatable {
  /// `XDG_RUNTIME_DIR` is unset or not absolute, so there is no per-user place for the socket.
  case noRuntimeDirectory
  /// The socket's folder is unsafe: another user owns it or may enter it, or it is not a folder.
  case unsafeFolder(String, reason: String)
  /// Another service answers on the socket.
  case alreadyRunning(String)
  /// The socket could not be made, bound, or connected to.
  case socketFailed(String, Errno)
  /// Socket activation handed over something that is not a listening Unix socket.
  case badActivation(String)
  /// The service refused this connection (another user, too many connections).
  case refused(String)
  /// No runner for the provider became free before the request's deadline.
  case busy(provider: String, after: Duration)
  /// A request was malformed, oversized, truncated or out of order.
  case badRequest(String)
  /// The two sides speak different protocol versions.
  case versionMismatch(service: Int, client: Int)
  /// The service went away mid-request (it was stopped, restarted or crashed).
  case connectionLost(String)
  /// The service did not answer within `after` (the request may still be served; it is not sent again).
  case noAnswer(String, after: Duration)
  /// The service sent a reply this client cannot read (not a reply of this protocol, or too big).
  case badReply(String, reason: String)
  /// The service sees other provider folders, configuration or
  /// `TRANSLATION_HOST_*` variables than the client, so its answers would
  /// not be the direct path's: it serves nothing to that client.
  case otherContext
  /// The service cannot serve this client (the reason); nothing was run for
  /// the request, and the client takes the direct path.
  indirect case unavailable(ServiceError)
  /// The service answered with a failure: a refusal, or what serving the
  /// request failed with in another domain (a provider, the registry).
  case reported(HostError)

  package var description: String {
    switch self {
    case .noRuntimeDirectory:
      "XDG_RUNTIME_DIR is not set (or not an absolute path), so there is no private folder for the service's socket; log in through a session that sets it, or set it to a folder only you can enter"
    case .unsafeFolder(let path, let reason):
      "\(path): \(reason); the service's folder must be a folder owned by you with mode 0700: run 'chmod 700 \(path)' or remove it"
    case .alreadyRunning(let path):
      "a translation-host service is already running on \(path); stop it first (systemctl --user stop translation-host.service, or kill its process)"
    case .socketFailed(let path, let errno):
      "cannot use the socket \(path): \(errno)"
    case .badActivation(let reason):
      "socket activation: \(reason); check the ListenStream= line of translation-host.socket"
    case .refused(let reason):
      "the translation-host service refused the connection: \(reason)"
    case .busy(let provider, let span):
      "every runner of provider '\(provider)' stayed busy for \(span.readable) (try again in a moment)"
    case .badRequest(let reason):
      "the translation-host service rejected a request: \(reason)"
    case .versionMismatch(let service, let client):
      "the translation-host service speaks protocol \(service) but this client speaks \(client); restart the service after updating translation-host"
    case .connectionLost(let path):
      "the translation-host service on \(path) went away during the request; check it with 'systemctl --user status translation-host'"
    case .noAnswer(let path, let span):
      "the translation-host service on \(path) did not answer within \(span.readable); it may be stuck: check it with 'systemctl --user status translation-host' and restart it"
    case .badReply(let path, let reason):
      "the translation-host service on \(path) sent a reply this client cannot read (\(reason)); restart the service after updating translation-host"
    case .otherContext:
      "the translation-host service sees other provider folders, configuration or TRANSLATION_HOST_* variables than this process"
    case .unavailable(let reason):
      reason.description
    case .reported(let error):
      error.message
    }
  }

  /// What to tell a person whose command took the direct path because the
  /// service was `unavailable`: nothing when it sees other folders (the
  /// person chose them), the reason when they may expect it to serve them.
  package var directPathNotice: String? {
    switch self {
    case .unavailable(let reason) where reason != .otherContext: "not using the translation-host service: \(reason)"
    default: nil
    }
  }

  package var hostError: HostError {
    switch self {
    case .reported(let error): error
    case .unavailable(let reason): reason.hostError
    case .busy: HostError(.deadlineExceeded, description, remedy: .longerDeadline)
    case .noAnswer: HostError(.deadlineExceeded, description, remedy: .bypassService)
    case .connectionLost, .badReply: HostError(.serviceFailed, description, remedy: .bypassService)
    case .noRuntimeDirectory, .unsafeFolder, .alreadyRunning, .socketFailed, .badActivation, .refused, .badRequest,
      .versionMismatch, .otherContext:
      HostError(.serviceFailed, description)
    }
  }
}
