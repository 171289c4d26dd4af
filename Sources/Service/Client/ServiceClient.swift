import Core
import Foundation
import RunnerProtocol
import System

/// A connection to the resident service (`translation-host serve`), for the
/// CLI and the `Translation` client library.
///
/// Requests are answered in order, one at a time, each in one round trip; a
/// client is for one thread at a time (open one per thread), except `close`.
/// The client never sends a request twice: a connection that went away
/// (`ServiceError.connectionLost`), a service that did not answer in time
/// (`noAnswer`) or answered what this client cannot read (`badReply`) is
/// reported as such. Whether a request is sent again is decided in one place,
/// `ServiceTranslator`.
package final class ServiceClient: @unchecked Sendable {
  /// Where the service listens.
  package let location: ServiceLocation
  /// What the service sees (`ServiceContext`), as it said in its hello.
  package private(set) var serviceContext = ""
  /// How long the client waits for a reply, given the provider's deadline.
  package var patience: Patience = .standard
  // Only `close()` touches it from another thread, and only the kernel state behind the descriptor.
  private let channel: FrameChannel

  /// How long a client waits for the service's reply to a request whose
  /// provider may take `timeout`.
  package struct Patience: Sendable {
    /// How long a reply to a request with a deadline of `timeout` is waited for.
    package var wait: @Sendable (_ timeout: Duration) -> Duration

    package init(wait: @escaping @Sendable (_ timeout: Duration) -> Duration) { self.wait = wait }

    /// The service may take the provider's deadline three times over
    /// (waiting for a runner, starting it, the request), and a little more.
    package static let standard = Patience { $0 * 3 + .seconds(5) }
  }

  private init(location: ServiceLocation, channel: FrameChannel) {
    self.location = location
    self.channel = channel
  }

  /// Connects to the service at `location` and greets it, giving a
  /// restarting service up to `waiting` to listen again.
  /// - Throws: `ServiceError` when nothing answers there, or it is not ours,
  ///   or speaks another version, or refused (`reported`).
  package static func connect(
    to location: ServiceLocation, waiting: Duration = .zero, patience: Patience = .standard
  ) throws(ServiceError) -> ServiceClient {
    let client = ServiceClient(location: location, channel: try open(location, waiting: waiting))
    client.patience = patience
    try client.greet()
    return client
  }

  /// The user's service, when one is running, answers, and sees what this
  /// process would see (the same provider folders, configuration and
  /// `TRANSLATION_HOST_*` variables); nil otherwise, so the caller takes the
  /// direct path. `notice` is told why when a service answers but cannot be
  /// used (it speaks another protocol version, is served by another user, or
  /// refused the connection), since the user may expect it to be. A
  /// restarting service is given up to `waiting` to listen again.
  package static func running(
    environment: [String: String] = ProcessInfo.processInfo.environment, waiting: Duration = .zero,
    notice: (String) -> Void = { _ in }
  ) -> ServiceClient? {
    guard let location = ServiceLocation.standard(environment: environment),
      waiting > .zero || (try? FileStatus(path: location.socket, followingLinks: false)) != nil
    else { return nil }
    let client: ServiceClient
    do {
      client = try connect(to: location, waiting: waiting)
    } catch {
      switch error {
      case .versionMismatch, .reported: notice("not using the translation-host service: \(error)")
      default: break
      }
      return nil
    }
    return client.serviceContext == ServiceContext.current(environment: environment) ? client : nil
  }

  /// Closes the connection; the service gives back a runner a scene held for
  /// it, and stops (and closes) one that was working on a request. Any
  /// thread: a request in progress on another fails at once.
  package func close() { UnixSocket.shutdown(channel.fd) }

  deinit { close() }

  // MARK: Requests

  /// Translates `texts` from `source` to `target` with `provider` (nil: the
  /// default). `notice` receives what resolving the provider has to say
  /// (how the default was chosen, manifest warnings).
  package func translate(
    _ texts: [String], from source: String, to target: String, provider: String? = nil, timeout: Duration = .seconds(30),
    notice: (String) -> Void = { _ in }
  ) throws(ServiceError) -> [String] {
    let reply = try exchange(
      .translate(provider: Self.absolute(provider), timeout: timeout, source: source, target: target, texts: texts),
      timeout: timeout)
    guard case .translations(let translations, let notices) = reply, translations.count == texts.count else {
      throw Self.unexpected(reply)
    }
    notices.forEach(notice)
    return translations
  }

  /// The language pairs of `provider` (nil: the default) and their status.
  package func languages(
    provider: String? = nil, timeout: Duration = .seconds(30), notice: (String) -> Void = { _ in }
  ) throws(ServiceError) -> [LanguagePairStatus] {
    let reply = try exchange(.languages(provider: Self.absolute(provider), timeout: timeout), timeout: timeout)
    guard case .languages(let pairs, let notices) = reply else { throw Self.unexpected(reply) }
    notices.forEach(notice)
    return pairs
  }

  /// The language of `text`, as `LanguageDetector.detect` finds it.
  package func detect(_ text: String) throws(ServiceError) -> LanguageDetection {
    let reply = try exchange(.detect(text: text), timeout: .seconds(10))
    guard case .detection(let detection) = reply else { throw Self.unexpected(reply) }
    return detection
  }

  /// A scene session with `provider` (nil: the default) on this connection:
  /// the service pins a warm runner to it until it closes. `notice`
  /// receives what resolving the provider has to say.
  package func openSceneSession(
    provider: String?, timeout: Duration, notice: (String) -> Void
  ) throws(ServiceError) -> ServiceSceneSession {
    let reply = try exchange(.openSession(provider: Self.absolute(provider), timeout: timeout), timeout: timeout)
    guard case .session(let bundle, let capabilities, let notices) = reply else { throw Self.unexpected(reply) }
    notices.forEach(notice)
    return ServiceSceneSession(client: self, bundle: bundle, capabilities: capabilities, timeout: timeout)
  }

  /// Sends `request` and returns the reply; a failure reply is thrown as
  /// `reported`. One round trip, never repeated.
  func exchange(_ request: ServiceRequest, timeout: Duration) throws(ServiceError) -> ServiceReply {
    let reply: ServiceReply
    do {
      try channel.send(request)
      reply = try channel.receive(ServiceReply.self, deadline: .after(patience.wait(timeout)))
    } catch {
      throw failure(error, timeout: timeout)
    }
    if case .failure(let failure) = reply { throw .reported(failure) }
    return reply
  }

  /// What a request with `timeout` that failed with `error` tells the caller.
  private func failure(_ error: ProtocolError, timeout: Duration) -> ServiceError {
    switch error {
    case .closed, .io: .connectionLost(location.socket)
    case .timedOut: .noAnswer(location.socket, after: patience.wait(timeout))
    default: .badReply(location.socket, reason: error.description)
    }
  }

  /// The `timeout` of a hello: the service answers it without a provider.
  private static let helloTimeout = Duration.seconds(2)

  private func greet() throws(ServiceError) {
    let reply: ServiceReply
    do {
      // A service that refuses a connection answers and closes at once,
      // maybe before the hello arrives: then sending fails, but the answer
      // is already here to be read.
      do { try channel.send(ServiceRequest.hello(protocolVersion: ServiceProtocol.version, context: "")) } catch .closed {
      } catch .io(let errno) where errno.rawValue == EPIPE || errno.rawValue == ECONNRESET {}
      reply = try channel.receive(ServiceReply.self, deadline: .after(patience.wait(Self.helloTimeout)))
    } catch .closed {
      throw .socketFailed(location.socket, Errno(rawValue: ECONNRESET))
    } catch .io(let errno) {
      throw .socketFailed(location.socket, errno)
    } catch {
      throw failure(error, timeout: Self.helloTimeout)
    }
    switch reply {
    case .hello(let version, let context) where version == ServiceProtocol.version: serviceContext = context
    case .hello(let version, _): throw .versionMismatch(service: version, client: ServiceProtocol.version)
    case .failure(let error): throw .reported(error)
    default: throw .badRequest("the service answered hello with \(reply)")
    }
  }

  static func unexpected(_ reply: ServiceReply) -> ServiceError {
    .badRequest("unexpected reply \(reply)")
  }

  /// A connection to the service at `location`, after checking that it is
  /// served by this user, waiting up to `waiting` for a restarting service
  /// to listen again.
  private static func open(_ location: ServiceLocation, waiting: Duration) throws(ServiceError) -> FrameChannel {
    let deadline = ContinuousClock.Instant.after(waiting)
    while true {
      let fd: Int32
      do {
        fd = try UnixSocket.connect(to: location.socket)
      } catch {
        guard !deadline.hasPassed else { throw .socketFailed(location.socket, error) }
        usleep(50_000)
        continue
      }
      let channel = FrameChannel(fd: fd)
      // Text goes only to a service of our own user, whoever made the socket file.
      let peer: UnixSocket.PeerCredentials
      do { peer = try UnixSocket.peerCredentials(fd) } catch { throw .socketFailed(location.socket, error) }
      guard peer.uid == FileStatus.currentUser else {
        throw .refused("\(location.socket) is served by uid \(peer.uid), not by you")
      }
      return channel
    }
  }

  /// A path reference made absolute (the service has its own working folder).
  private static func absolute(_ reference: String?) -> String? {
    guard let reference, ProviderResolution.isPath(reference), !reference.hasPrefix("/") else { return reference }
    return FileManager.default.currentDirectoryPath + "/" + reference
  }
}
