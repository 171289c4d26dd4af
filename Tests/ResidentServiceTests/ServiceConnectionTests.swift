import Dispatch
import RunnerProtocol
import Service
import System
import TestSupport
import Testing

@testable import ResidentService

/// What the service answers on one connection, served in this process on a
/// socket pair: no service, runner or provider process is started, so only
/// requests the service answers without a runner are here (the rest are
/// `ServiceTests`' and `EndToEndTests`').
@Suite struct ServiceConnectionTests {
  /// A connection served on a thread of this process, and the client's end of it.
  final class Served {
    let home: TemporaryDirectory
    let server: ServiceServer
    let client: FrameChannel
    private let listener: FileDescriptor
    private let ended = DispatchSemaphore(value: 0)

    init(requestArrival: Duration = .seconds(10), idleTimeout: Duration = .seconds(60)) throws {
      home = try TemporaryDirectory()
      let environment = [
        "HOME": home.path, "XDG_DATA_HOME": home.path + "/data", "XDG_CONFIG_HOME": home.path + "/config",
        "XDG_CACHE_HOME": home.path + "/cache", "XDG_RUNTIME_DIR": home.path,
        "TRANSLATION_HOST_PROVIDER_PATH": home.path + "/providers",
      ]
      var configuration = ServiceServer.Configuration()
      configuration.requestArrival = requestArrival
      configuration.connectionIdleTimeout = idleTimeout
      let (listener, unused) = try Syscalls.socketPair()
      Syscalls.close(unused)
      self.listener = listener
      server = try ServiceServer(
        listener: listener, socketPath: nil, configuration: configuration, environment: environment, log: { _ in })
      let (near, far) = try Syscalls.socketPair()
      client = FrameChannel(fd: near)
      // As the service admits a connection it accepted (its caller's checks are `ServiceTests`').
      guard server.connections.admit(far) else { throw Unexpected() }
      nonisolated(unsafe) let connection = ServiceConnection(fd: far, server: server)
      DetachedThread.start(name: "served-connection") { [ended] in
        connection.serve()
        ended.signal()
      }
    }

    /// Closes the client's end and waits for the connection to end.
    func finish() {
      UnixSocket.shutdown(client.fd)
      ended.wait()
      ended.signal()
    }

    /// Whether the connection's thread ended within `span`, the client's end left open.
    func ends(within span: Duration) -> Bool {
      guard ended.wait(timeout: .now() + span.inSeconds) == .success else { return false }
      ended.signal()
      return true
    }

    /// Whether the service closed the connection (the next read finds its end).
    var isClosed: Bool {
      guard (try? Syscalls.waitReadable(client.fd, timeout: .seconds(5))) == true else { return false }
      return (try? client.receive(ServiceReply.self, deadline: .after(.seconds(1)))) == nil
    }

    func exchange(_ request: ServiceRequest) throws -> ServiceReply {
      try client.send(request)
      return try client.receive(ServiceReply.self, deadline: .after(.seconds(10)))
    }

    func greet() throws {
      guard case .hello = try exchange(.hello(protocolVersion: ServiceProtocol.version, context: "")) else {
        throw Unexpected()
      }
    }

    /// Writes `bytes` as they are, framing and all.
    func sendRaw(_ bytes: [UInt8]) throws { try Syscalls.writeAll(client.fd, bytes) }
  }

  struct Unexpected: Error {}

  static func frame(_ payload: [UInt8], length: Int? = nil) -> [UInt8] {
    let count = UInt32(length ?? payload.count)
    return [UInt8(count >> 24), UInt8((count >> 16) & 0xff), UInt8((count >> 8) & 0xff), UInt8(count & 0xff)] + payload
  }

  /// The failure in `reply`, or nil for any other reply.
  static func failure(_ reply: ServiceReply) -> HostError? {
    if case .failure(let error) = reply { return error }
    return nil
  }

  struct Refusal: Sendable, CustomTestStringConvertible {
    var name: String
    var greeted: Bool
    var request: ServiceRequest
    /// A part of the failure's message.
    var says: String
    var kind: HostError.Kind?
    var testDescription: String { name }
  }

  static let refusals: [Refusal] = [
    Refusal(
      name: "a request before hello", greeted: false, request: .detect(text: "Hello"),
      says: "the first request must be hello", kind: .serviceFailed),
    Refusal(
      name: "a scene request without a scene", greeted: true, request: .performAction(id: "translate"),
      says: "no scene is open", kind: .serviceFailed),
    Refusal(
      name: "a change watch without a scene", greeted: true, request: .watchChange,
      says: "no scene is open", kind: .serviceFailed),
    Refusal(
      name: "a take without a scene", greeted: true, request: .takeChange, says: "no scene is open", kind: .serviceFailed),
    Refusal(
      name: "a provider path that is no bundle", greeted: true,
      request: .translate(
        provider: "/nonexistent/Nothing.translationprovider", timeout: .seconds(5), source: "en",
        target: "es", texts: ["Hello"]),
      says: "/nonexistent/Nothing.translationprovider", kind: nil),
    Refusal(
      name: "a provider name nothing answers to", greeted: true,
      request: .languages(provider: "NoSuchProvider", timeout: .seconds(5)), says: "NoSuchProvider", kind: nil),
  ]

  @Test(arguments: refusals)
  func refusesWhatItCannotServe(_ test: Refusal) throws {
    let served = try Served()
    defer { served.finish() }
    if test.greeted { try served.greet() }
    let reply = try served.exchange(test.request)
    let failure = try #require(Self.failure(reply), "answered \(reply)")
    #expect(failure.message.contains(test.says), "\(failure.message)")
    if let kind = test.kind { #expect(failure.kind == kind, "\(failure.message)") }
  }

  @Test func aClientOfAnotherVersionGetsAHelloItCanReadAndNothingMore() throws {
    let served = try Served()
    defer { served.finish() }
    let reply = try served.exchange(.hello(protocolVersion: ServiceProtocol.version + 1, context: ""))
    #expect(reply == .hello(protocolVersion: ServiceProtocol.version, context: ""))
    #expect(served.isClosed)
  }

  @Test func aClientOfAnotherContextIsServedNothing() throws {
    let served = try Served()
    defer { served.finish() }
    guard
      case .hello(_, let context) = try served.exchange(.hello(protocolVersion: ServiceProtocol.version, context: "/elsewhere"))
    else { throw Unexpected() }
    #expect(context != "/elsewhere")
    let reply = try served.exchange(.detect(text: "Hello, how are you today?"))
    #expect(Self.failure(reply)?.message == ServiceError.otherContext.hostError.message)
  }

  @Test func detectionIsAnsweredWithoutARunner() throws {
    let served = try Served()
    defer { served.finish() }
    try served.greet()
    guard
      case .detection(let detection) = try served.exchange(
        .detect(text: "The cat is on the table, and the dog is in the garden."))
    else { throw Unexpected() }
    #expect(detection.tag == "en")
  }

  struct BadFrame: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var says: String
    /// Whether the service goes on reading the connection after answering.
    var staysOpen: Bool
    var testDescription: String { name }
  }

  static let badFrames: [BadFrame] = [
    BadFrame(name: "an unknown request", bytes: frame([99]), says: "unknown request 99", staysOpen: true),
    BadFrame(
      name: "a frame larger than the limit", bytes: frame([], length: FrameChannel.maximumFrameSize + 1),
      says: "exceeds the", staysOpen: false),
    BadFrame(
      name: "a negative wait", bytes: frame([10, 0xff, 0xff, 0xff, 0xff]), says: "a negative wait", staysOpen: true),
  ]

  @Test(arguments: badFrames)
  func answersABadFrameAndClosesOnlyWhenItMust(_ test: BadFrame) throws {
    let served = try Served()
    defer { served.finish() }
    try served.greet()
    try served.sendRaw(test.bytes)
    let reply = try served.client.receive(ServiceReply.self, deadline: .after(.seconds(10)))
    let failure = try #require(Self.failure(reply))
    #expect(failure.message.contains(test.says), "\(failure.message)")
    if test.staysOpen {
      guard case .detection = try served.exchange(.detect(text: "Hello")) else { throw Unexpected() }
    } else {
      #expect(served.isClosed)
    }
  }

  @Test func aRequestThatNeverArrivesWholeIsAnsweredAtItsDeadline() throws {
    let served = try Served(requestArrival: .milliseconds(200))
    defer { served.finish() }
    try served.greet()
    try served.sendRaw([0, 0, 0, 20, 5])
    let reply = try served.client.receive(ServiceReply.self, deadline: .after(.seconds(10)))
    #expect(Self.failure(reply)?.message.contains("did not arrive whole within") == true)
    #expect(served.isClosed)
  }

  /// Requests written together in one write (a client that sends its next
  /// request before reading the reply, or a hello sent ahead) are answered
  /// one by one, in order, from the one buffer they arrived in.
  @Test(arguments: [1, 2, 5])
  func requestsArrivingTogetherAreAnsweredInOrder(_ count: Int) throws {
    let served = try Served()
    defer { served.finish() }
    var bytes = Self.frame(Self.payload(.hello(protocolVersion: ServiceProtocol.version, context: "")))
    for _ in 0..<count { bytes += Self.frame(Self.payload(.detect(text: "Hello"))) + Self.frame([99]) }
    try served.sendRaw(bytes)
    guard case .hello = try served.client.receive(ServiceReply.self, deadline: .after(.seconds(10))) else { throw Unexpected() }
    for _ in 0..<count {
      guard case .detection = try served.client.receive(ServiceReply.self, deadline: .after(.seconds(10))) else {
        throw Unexpected()
      }
      let refusal = try served.client.receive(ServiceReply.self, deadline: .after(.seconds(10)))
      #expect(Self.failure(refusal)?.message.contains("unknown request 99") == true)
    }
  }

  struct Waiting: Sendable, CustomTestStringConvertible {
    var name: String
    var greeted: Bool
    var idleTimeout: Duration
    /// Whether the service is stopped while the connection waits.
    var stops: Bool
    var testDescription: String { name }
  }

  /// A connection waiting for its next request ends when the service stops
  /// or the idle limit passes, a hello sent or not.
  @Test(arguments: [
    Waiting(name: "stopped before a hello", greeted: false, idleTimeout: .seconds(60), stops: true),
    Waiting(name: "stopped between requests", greeted: true, idleTimeout: .seconds(60), stops: true),
    Waiting(name: "idle past the limit", greeted: true, idleTimeout: .milliseconds(100), stops: false),
  ])
  func aWaitingConnectionEndsWhenTheServiceStopsOrItIdles(_ test: Waiting) throws {
    let served = try Served(idleTimeout: test.idleTimeout)
    defer { served.finish() }
    if test.greeted { try served.greet() }
    #expect(!served.ends(within: .milliseconds(30)))
    if test.stops { served.server.stop() }
    #expect(served.ends(within: .seconds(10)))
    #expect(served.isClosed)
  }

  static func payload(_ request: ServiceRequest) -> [UInt8] {
    var writer = WireWriter()
    request.encode(to: &writer)
    return writer.bytes
  }

  @Test(arguments: [(Duration.seconds(5), Duration.seconds(5)), (.seconds(601), .seconds(600)), (.seconds(6000), .seconds(600))])
  func aCallersDeadlineIsClampedToTheLongest(_ asked: Duration, _ given: Duration) throws {
    let served = try Served()
    defer { served.finish() }
    #expect(RequestHandler(server: served.server).clamped(asked) == given)
  }
}
