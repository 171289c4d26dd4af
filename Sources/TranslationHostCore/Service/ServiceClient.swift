import Foundation

/// A connection to the resident service (`translation-host serve`), for the
/// CLI and the `Translation` client library.
///
/// Requests are answered in order, one at a time; a client is for one thread
/// at a time (open one per thread). When the service goes away during a
/// request (it was restarted, or crashed), the client reconnects and sends
/// the request once more; if that fails too, or a scene was open (its runner
/// is gone with the old connection), it throws `ServiceError.connectionLost`.
/// A service that does not answer in time (`noAnswer`) or answers what this
/// client cannot read (`badReply`) is not asked again.
package final class ServiceClient {
  /// Where the service listens.
  package let location: ServiceLocation
  /// What the service sees (`ServiceContext`), as it said in its hello.
  package private(set) var serviceContext = ""
  /// Whether a failed request may be sent again on a new connection; false while a scene is open.
  var mayRetry = true
  private var channel: FrameChannel

  private init(location: ServiceLocation, channel: FrameChannel) {
    self.location = location
    self.channel = channel
  }

  /// Connects to the service at `location` and greets it.
  /// - Throws: `ServiceError` when nothing answers there, or it is not ours, or speaks another version.
  package static func connect(to location: ServiceLocation) throws(ServiceError) -> ServiceClient {
    let client = ServiceClient(location: location, channel: try open(location))
    try client.greet()
    return client
  }

  /// The user's service, when one is running, answers, and sees what this
  /// process would see (the same provider folders, configuration and
  /// `TRANSLATION_HOST_*` variables); nil otherwise, so the caller takes the
  /// direct path. `notice` is told why when a service answers but cannot be
  /// used (it speaks another protocol version, is served by another user, or
  /// refused the connection), since the user may expect it to be.
  package static func running(
    environment: [String: String] = ProcessInfo.processInfo.environment, notice: (String) -> Void = { _ in }
  ) -> ServiceClient? {
    guard let location = ServiceLocation.standard(environment: environment),
      (try? FileStatus(path: location.socket, followingLinks: false)) != nil
    else { return nil }
    let client: ServiceClient
    do {
      client = try connect(to: location)
    } catch {
      switch error {
      case .versionMismatch, .refused: notice("not using the translation-host service: \(error)")
      default: break
      }
      return nil
    }
    return client.serviceContext == ServiceContext.current(environment: environment) ? client : nil
  }

  /// Closes the connection; the service gives back a runner a scene held for
  /// it, and stops (and closes) one that was working on a request.
  package func close() { UnixSocket.shutdown(channel.fd) }

  deinit { close() }

  // MARK: Requests

  /// Translates `texts` from `source` to `target` with `provider` (nil: the default).
  /// - Throws: what the direct path throws (`RunnerError`, `RegistryError`), or a `ServiceError`.
  package func translate(
    _ texts: [String], from source: String, to target: String, provider: String? = nil, timeout: Double = 30
  ) throws -> [String] {
    do {
      return try Self.translate(texts, from: source, to: target, provider: Self.absolute(provider), timeout: timeout) {
        (request) throws(ServiceFailure) in try exchange(request, timeout: timeout)
      }
    } catch { throw error.error }
  }

  /// The language pairs of `provider` (nil: the default) and their status.
  package func languages(provider: String? = nil, timeout: Double = 30) throws -> [LanguagePairStatus] {
    do {
      return try Self.languages(provider: Self.absolute(provider), timeout: timeout) {
        (request) throws(ServiceFailure) in try exchange(request, timeout: timeout)
      }
    } catch { throw error.error }
  }

  /// A translate request sent through `exchange`, its reply checked (one
  /// translation per text); for the client and for `ServiceSession`.
  static func translate(
    _ texts: [String], from source: String, to target: String, provider: String?, timeout: Double,
    through exchange: (ServiceRequest) throws(ServiceFailure) -> ServiceReply
  ) throws(ServiceFailure) -> [String] {
    let reply = try exchange(.translate(provider: provider, timeout: timeout, source: source, target: target, texts: texts))
    guard case .translations(let translations) = reply, translations.count == texts.count else { throw unexpected(reply) }
    return translations
  }

  /// A languages request sent through `exchange`, its reply checked; for the client and for `ServiceSession`.
  static func languages(
    provider: String?, timeout: Double, through exchange: (ServiceRequest) throws(ServiceFailure) -> ServiceReply
  ) throws(ServiceFailure) -> [LanguagePairStatus] {
    let reply = try exchange(.languages(provider: provider, timeout: timeout))
    guard case .languages(let pairs) = reply else { throw unexpected(reply) }
    return pairs
  }

  /// The language of `text`, as `LanguageDetector.detect` finds it.
  package func detect(_ text: String) throws -> LanguageDetection {
    let reply = try send(.detect(text: text), timeout: 10)
    guard case .detection(let detection) = reply else { throw Self.unexpected(reply) }
    return detection
  }

  /// A session with `provider` (nil: the default) on this connection, to be
  /// driven as any `ProviderSession`. `notice` receives what resolving the
  /// provider has to say (how the default was chosen, manifest warnings), as
  /// `ProviderResolution` would say it.
  package func openSession(provider: String?, timeout: Double, notice: (String) -> Void) throws -> ServiceSession {
    let reply = try send(.openSession(provider: Self.absolute(provider), timeout: timeout), timeout: timeout)
    guard case .session(let bundle, let capabilities, let notices) = reply else { throw Self.unexpected(reply) }
    notices.forEach(notice)
    return ServiceSession(client: self, bundle: bundle, capabilities: capabilities, timeout: timeout)
  }

  /// Sends `request` and returns the reply, reconnecting once if the service
  /// went away (see the type's description). A failure reply is thrown as
  /// the error it carries.
  func exchange(_ request: ServiceRequest, timeout: Double) throws(ServiceFailure) -> ServiceReply {
    let reply: ServiceReply
    do {
      reply = try roundTrip(request, timeout: timeout)
    } catch {
      guard mayRetry, error == .closed || Self.isIO(error) else {
        throw .service(failure(error, timeout: timeout, retried: false))
      }
      do {
        channel = try Self.open(location, patience: 3)
        try greet()
      } catch {
        throw .service(.connectionLost(location.socket, retried: true))
      }
      do {
        reply = try roundTrip(request, timeout: timeout)
      } catch {
        throw .service(failure(error, timeout: timeout, retried: true))
      }
    }
    if case .failure(let failure) = reply { throw failure }
    return reply
  }

  private func send(_ request: ServiceRequest, timeout: Double) throws -> ServiceReply {
    do { return try exchange(request, timeout: timeout) } catch { throw error.error }
  }

  /// One request and its reply. The service may take the provider's
  /// deadline three times over (waiting for a runner, starting it, the
  /// request), and a little more.
  private func roundTrip(_ request: ServiceRequest, timeout: Double) throws(ProtocolError) -> ServiceReply {
    try channel.send(request)
    return try channel.receive(ServiceReply.self, deadline: Deadline.after(Self.patience(timeout)))
  }

  /// How long the client waits for a reply to a request with `timeout`.
  private static func patience(_ timeout: Double) -> Double { timeout * 3 + 5 }

  /// The `timeout` of a hello: the service answers it without a provider.
  private static let helloSeconds: Double = 2

  private static func isIO(_ error: ProtocolError) -> Bool {
    if case .io = error { return true }
    return false
  }

  /// What a request with `timeout` that failed with `error` tells the caller.
  private func failure(_ error: ProtocolError, timeout: Double, retried: Bool) -> ServiceError {
    switch error {
    case .closed, .io: .connectionLost(location.socket, retried: retried)
    case .timedOut: .noAnswer(location.socket, seconds: Self.patience(timeout))
    default: .badReply(location.socket, reason: error.description)
    }
  }

  private func greet() throws(ServiceError) {
    let reply: ServiceReply
    do {
      // A service that refuses a connection answers and closes at once,
      // maybe before the hello arrives: then sending fails, but the answer
      // is already here to be read.
      do { try channel.send(ServiceRequest.hello(protocolVersion: ServiceProtocol.version, context: "")) } catch .closed {
      } catch .io(let errno) where errno.rawValue == EPIPE || errno.rawValue == ECONNRESET {}
      reply = try channel.receive(ServiceReply.self, deadline: Deadline.after(Self.patience(Self.helloSeconds)))
    } catch .closed {
      throw .socketFailed(location.socket, Errno(rawValue: ECONNRESET))
    } catch .io(let errno) {
      throw .socketFailed(location.socket, errno)
    } catch {
      throw failure(error, timeout: Self.helloSeconds, retried: false)
    }
    switch reply {
    case .hello(let version, let context) where version == ServiceProtocol.version: serviceContext = context
    case .hello(let version, _): throw .versionMismatch(service: version, client: ServiceProtocol.version)
    case .failure(.service(let error)): throw error
    default: throw .badRequest("the service answered hello with \(reply)")
    }
  }

  static func unexpected(_ reply: ServiceReply) -> ServiceFailure {
    .service(.badRequest("unexpected reply \(reply)"))
  }

  /// A connection to the service at `location`, after checking that it is
  /// served by this user. With `patience`, waits that many seconds for a
  /// restarting service to listen again.
  private static func open(_ location: ServiceLocation, patience: Double = 0) throws(ServiceError) -> FrameChannel {
    let deadline = Deadline.after(patience)
    while true {
      do {
        let fd = try UnixSocket.connect(to: location.socket)
        let channel = FrameChannel(fd: fd)
        // Text goes only to a service of our own user, whoever made the socket file.
        let peer = try UnixSocket.peerCredentials(fd)
        guard peer.uid == FileStatus.currentUser else {
          throw ServiceError.refused("\(location.socket) is served by uid \(peer.uid), not by you")
        }
        return channel
      } catch let error as Errno {
        guard Syscalls.monotonicNanoseconds() < deadline else { throw .socketFailed(location.socket, error) }
        usleep(50_000)
      } catch let error as ServiceError {
        throw error
      } catch {
        throw .badRequest("\(error)")
      }
    }
  }

  /// A path reference made absolute (the service has its own working folder).
  private static func absolute(_ reference: String?) -> String? {
    guard let reference, ProviderResolution.isPath(reference), !reference.hasPrefix("/") else { return reference }
    return FileManager.default.currentDirectoryPath + "/" + reference
  }
}
