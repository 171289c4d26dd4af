import Core
import FoundationEssentials
import RunnerProtocol
import System

/// A connection to the resident service (`translation-host serve`), for the
/// CLI and the `Translation` client library.
///
/// Requests are answered in order, one at a time, each in one round trip; a
/// client is for one thread at a time (open one per thread), except `close`.
/// A client found with `running` sends its hello ahead of its first request
/// and reads both replies together, so that request, too, is one round trip;
/// the service runs nothing for a client that sees other folders.
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
  /// While the reply to a hello sent ahead of the first request is unread:
  /// the context this client expects the service to see.
  private var pendingGreeting: String?
  /// False once a request failed other than by the service's answer: the
  /// connection went away, or a reply came late or garbled (a late one could
  /// be taken for the next request's), so it is closed and not used again.
  package private(set) var isUsable = true

  /// How long a client waits for the service's reply to a request whose
  /// provider may take `timeout`.
  package struct Patience: Sendable {
    /// How long a reply to a request with a deadline of `timeout` is waited for.
    package var wait: @Sendable (_ timeout: Duration) -> Duration

    package init(wait: @escaping @Sendable (_ timeout: Duration) -> Duration) { self.wait = wait }

    /// The service may take the provider's deadline three times over
    /// (waiting for a runner, starting it, the request), and a little more.
    /// (Added, not multiplied: `Duration`'s product is 128-bit arithmetic,
    /// some 500 instructions a request.)
    package static let standard = Patience { $0 + $0 + $0 + .seconds(5) }
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
    client.sendHello(context: "")
    try client.readGreeting()
    return client
  }

  /// A connection to the user's service, when one listens (a restarting
  /// service is given up to `waiting` to listen again), with a hello sent
  /// that names what this process sees (the provider folders, the
  /// configuration and the `TRANSLATION_HOST_*` variables); nil when none
  /// listens, so the caller takes the direct path. Whether the service can
  /// serve this process is known with the first reply: if it cannot (it sees
  /// other folders, speaks another protocol version, or refused), the first
  /// request throws `unavailable`, and nothing was run for it.
  package static func running(
    environment: [String: String] = ProcessInfo.processInfo.environment, waiting: Duration = .zero
  ) -> ServiceClient? {
    guard let location = ServiceLocation.standard(environment: environment),
      waiting > .zero || (try? FileStatus(path: location.socket, followingLinks: false)) != nil,
      let channel = try? open(location, waiting: waiting)
    else { return nil }
    let client = ServiceClient(location: location, channel: channel)
    let context = ServiceContext.current(environment: environment)
    client.sendHello(context: context)
    client.pendingGreeting = context
    return client
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
    _ texts: [String], from source: String, to target: String, provider: String? = nil,
    timeout: Duration = RequestDeadline.standard,
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
    provider: String? = nil, timeout: Duration = RequestDeadline.standard, notice: (String) -> Void = { _ in }
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
    // A service that cannot serve this client answered the hello and may
    // have closed: the hello's reply is read even if sending fails.
    var unsent: ProtocolError?
    do { try channel.send(request) } catch { unsent = error }
    if let expected = pendingGreeting {
      pendingGreeting = nil
      do {
        try readGreeting(expecting: expected)
      } catch .otherContext {
        throw retire(.unavailable(.otherContext))
      } catch .versionMismatch(let service, let client) {
        throw retire(.unavailable(.versionMismatch(service: service, client: client)))
      } catch .reported(let refusal) {
        throw retire(.unavailable(.reported(refusal)))
      } catch .badReply(let path, let reason) {
        // A hello this client cannot read comes from a service of another
        // version, which closes after answering it and runs nothing.
        throw retire(.unavailable(.badReply(path, reason: reason)))
      } catch {
        throw retire(error)
      }
    }
    if let unsent { throw retire(failure(unsent, timeout: timeout)) }
    return try receiveReply(timeout: timeout)
  }

  /// Sends `request` without reading its reply (a watch, answered later);
  /// the connection must have been greeted.
  func send(_ request: ServiceRequest, timeout: Duration) throws(ServiceError) {
    precondition(pendingGreeting == nil, "a request sent unanswered before the hello's reply")
    do { try channel.send(request) } catch { throw retire(failure(error, timeout: timeout)) }
  }

  /// Reads the reply to the oldest request not answered yet; a failure
  /// reply is thrown as `reported`.
  func receiveReply(timeout: Duration) throws(ServiceError) -> ServiceReply {
    let reply: ServiceReply
    do {
      reply = try channel.receive(ServiceReply.self, deadline: .after(patience.wait(timeout)))
    } catch {
      throw retire(failure(error, timeout: timeout))
    }
    if case .failure(let failure) = reply { throw .reported(failure) }
    return reply
  }

  /// The connection's socket, to wait on for a reply.
  var descriptor: FileDescriptor { channel.fd }

  /// Closes a connection that can no longer be trusted, and returns `error`.
  private func retire(_ error: ServiceError) -> ServiceError {
    isUsable = false
    close()
    return error
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

  /// Sends the hello. A service that refuses a connection answers and
  /// closes at once, maybe before the hello arrives: then sending fails, but
  /// the answer is already there to be read, so a failure here is not one.
  private func sendHello(context: String) {
    try? channel.send(ServiceRequest.hello(protocolVersion: ServiceProtocol.version, context: context))
  }

  /// Reads the reply to the hello; with `expected`, the service must see that context.
  private func readGreeting(expecting expected: String? = nil) throws(ServiceError) {
    let reply: ServiceReply
    do {
      reply = try channel.receive(ServiceReply.self, deadline: .after(patience.wait(Self.helloTimeout)))
    } catch .closed {
      throw .socketFailed(location.socket, .connectionReset)
    } catch .io(let errno) {
      throw .socketFailed(location.socket, errno)
    } catch {
      throw failure(error, timeout: Self.helloTimeout)
    }
    switch reply {
    case .hello(let version, let context) where version == ServiceProtocol.version:
      serviceContext = context
      if let expected, context != expected { throw .otherContext }
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
  /// to listen again: woken when its socket's path changes (inotify; a
  /// service's socket appears there only once it listens), not polling.
  private static func open(_ location: ServiceLocation, waiting: Duration) throws(ServiceError) -> FrameChannel {
    let deadline = ContinuousClock.Instant.after(waiting)
    var watch: FileWatch?
    while true {
      let fd: FileDescriptor
      do {
        fd = try UnixSocket.connect(to: location.socket)
      } catch {
        guard !deadline.hasPassed else { throw .socketFailed(location.socket, error) }
        if let armed = watch {
          _ = armed.waitForChange(until: deadline)
          watch = nil
        } else if let armed = try? FileWatch(paths: [location.socket]) {
          // Armed after a failure: one more attempt first, so that a socket
          // that appeared in between is not waited for in vain.
          watch = armed
        } else {
          Syscalls.sleep(for: .milliseconds(50))  // no inotify (no instances left): look again now and then
        }
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
    // An absolute path first: its first byte says so (`isPath` searches the whole reference).
    guard let reference, reference.utf8.first != UInt8(ascii: "/"), ProviderResolution.isPath(reference) else {
      return reference
    }
    return FileManager.default.currentDirectoryPath + "/" + reference
  }
}
