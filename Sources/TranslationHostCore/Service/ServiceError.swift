/// Why the resident service could not start, refused a client, or could not
/// be reached; and failures it forwards from domains that do not travel
/// whole (see `ServiceFailure`).
package enum ServiceError: Error, Equatable, CustomStringConvertible {
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
  case busy(provider: String, seconds: Double)
  /// A request was malformed, oversized, truncated or out of order.
  case badRequest(String)
  /// The two sides speak different protocol versions.
  case versionMismatch(service: Int, client: Int)
  /// The service went away mid-request, and again after one reconnect (or
  /// while a scene was open, which cannot be replayed).
  case connectionLost(String, retried: Bool)
  /// The service did not answer within `seconds` (the request may still be served; it is not sent again).
  case noAnswer(String, seconds: Double)
  /// The service sent a reply this client cannot read (not a reply of this protocol, or too big).
  case badReply(String, reason: String)
  /// A failure the service reported from another domain; `kind` says how bad.
  case remote(Kind, String)

  /// How a forwarded failure should be treated, as the domain it came from would be.
  package enum Kind: UInt8, Sendable {
    /// A mistake in what the caller asked for (a setting of the wrong type, a bad limit variable).
    case usage = 1
    /// The provider cannot be used (its manifest).
    case unavailable = 2
    /// Anything else.
    case failure = 3
  }

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
    case .busy(let provider, let seconds):
      "every runner of provider '\(provider)' stayed busy for \(Self.format(seconds)) s; try again, or raise --timeout"
    case .badRequest(let reason):
      "the translation-host service rejected a request: \(reason)"
    case .versionMismatch(let service, let client):
      "the translation-host service speaks protocol \(service) but this client speaks \(client); restart the service after updating translation-host"
    case .connectionLost(let path, let retried):
      "the translation-host service on \(path) went away during the request"
        + (retried ? " and again after reconnecting" : " while a scene was open")
        + "; check it with 'systemctl --user status translation-host', or pass --no-service"
    case .noAnswer(let path, let seconds):
      "the translation-host service on \(path) did not answer within \(Self.format(seconds)) s; it may be stuck: check it with 'systemctl --user status translation-host' and restart it, or pass --no-service"
    case .badReply(let path, let reason):
      "the translation-host service on \(path) sent a reply this client cannot read (\(reason)); restart the service after updating translation-host, or pass --no-service"
    case .remote(_, let message):
      message
    }
  }

  private static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  }
}
