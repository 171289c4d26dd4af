import Foundation
import Glibc
import RunnerProtocol
import Service
import Synchronization
import System
import TestSupport
import Testing

/// What the client says when the service misbehaves: each failure its own
/// error, and none sent again (that is `ServiceTranslator`'s to decide).
@Suite struct ServiceClientTests {
  /// How the stand-in service treats a client.
  enum Behaviour: Sendable {
    /// Answers hello, then never answers.
    case silent
    /// Answers hello, then sends a reply of no known kind.
    case garbage
    /// Answers hello, then closes the connection.
    case closes
    /// Answers hello with a reply of no known kind.
    case garbledHello
    /// Answers hello as a service of protocol 99.
    case otherVersion
  }

  /// A stand-in for `translation-host serve` on a socket of its own, counting connections.
  final class StandIn: @unchecked Sendable {
    let folder: TemporaryDirectory
    let location: ServiceLocation
    private let counter = Counter()
    private let listener: FileDescriptor
    private let accepting = DispatchGroup()

    var connections: Int { counter.value.withLock { $0 } }

    /// The connections so far; apart from the stand-in, so that its accepting
    /// thread does not keep the stand-in (and its folder) alive.
    private final class Counter: Sendable {
      let value = Mutex(0)
    }

    /// Listens in a new temporary folder, or in `runtime`/translation-host where clients look when that is their
    /// `XDG_RUNTIME_DIR`; `replacing` a dead service's socket there, as `serve` does.
    init(_ behaviour: Behaviour, runtime: String? = nil, replacing: Bool = false) throws {
      folder = try TemporaryDirectory()
      location =
        runtime.map { ServiceLocation.standard(environment: ["XDG_RUNTIME_DIR": $0])! } ?? ServiceLocation(folder: folder.path)
      try UnixSocket.makeFolder(location.folder, mode: 0o700)
      if replacing { UnixSocket.unlink(location.socket) }
      listener = try UnixSocket.listen(at: location.socket)
      accepting.enter()
      Thread { [counter, listener, accepting] in
        defer { accepting.leave() }
        while let fd = try? UnixSocket.accept(listener) {
          counter.value.withLock { $0 += 1 }
          Thread { Self.serve(FrameChannel(fd: fd), behaviour) }.start()
        }
      }.start()
    }

    /// Stops accepting (and waits until the accepting thread has), then the folder goes.
    deinit {
      UnixSocket.shutdown(listener)  // wakes the accepting thread
      accepting.wait()
      Syscalls.close(listener)
    }

    static let garbage: [UInt8] = [0, 0, 0, 1, 99]

    /// Answers the hello as a service that sees what the client sees.
    private static func serve(_ channel: FrameChannel, _ behaviour: Behaviour) {
      guard case .hello(_, let context)? = try? channel.receive(ServiceRequest.self) else { return }
      if case .garbledHello = behaviour {
        try? garbage.withUnsafeBytes { try Syscalls.writeAll(channel.fd, $0) }
        _ = try? channel.receive(ServiceRequest.self)  // until the client leaves
        return
      }
      let version = if case .otherVersion = behaviour { 99 } else { ServiceProtocol.version }
      try? channel.send(ServiceReply.hello(protocolVersion: version, context: context))
      guard (try? channel.receive(ServiceRequest.self)) != nil else { return }
      switch behaviour {
      case .garbage: try? garbage.withUnsafeBytes { try Syscalls.writeAll(channel.fd, $0) }
      case .closes: return
      case .silent, .garbledHello, .otherVersion: break
      }
      _ = try? channel.receive(ServiceRequest.self)  // until the client leaves
    }
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var behaviour: Behaviour
    var error: @Sendable (String) -> ServiceError
    var connections: Int
  }

  static let cases: [Case] = [
    Case(
      testDescription: "no answer in time", behaviour: .silent, error: { .noAnswer($0, after: .milliseconds(500)) },
      connections: 1),
    Case(
      testDescription: "an unreadable reply", behaviour: .garbage,
      error: { .badReply($0, reason: "malformed message: unknown reply 99") }, connections: 1),
    Case(
      testDescription: "a connection that goes away", behaviour: .closes,
      error: { .connectionLost($0) }, connections: 1),
  ]

  @Test(arguments: cases) func eachFailureIsItsOwnErrorAndNoneIsSentAgain(_ test: Case) throws {
    let service = try StandIn(test.behaviour)
    // Waits twice the provider's deadline, not the 5.75 s a user's client would.
    let client = try ServiceClient.connect(to: service.location, patience: ServiceClient.Patience { $0 * 2 })
    #expect(throws: test.error(service.location.socket)) {
      try client.translate(["hi"], from: "en", to: "es", timeout: .milliseconds(250))
    }
    #expect(service.connections == test.connections)
  }

  /// The retry policy's bound (`ServiceTranslator`): a request whose
  /// connection goes away is sent once more, and no more, even to a service
  /// that drops it every time; the session then ends.
  @Test func aLostRequestIsSentTwiceAtMost() throws {
    let runtime = try TemporaryDirectory()
    let service = try StandIn(.closes, runtime: runtime.path)
    let translator = try ProviderLaunch.translator(
      provider: nil, timeout: .seconds(5), usesService: true, environment: ["XDG_RUNTIME_DIR": runtime.path], notice: { _ in })
    defer { translator.close() }
    #expect(throws: ServiceError.connectionLost(service.location.socket).hostError) {
      try translator.translate(["hi"], from: "en", to: "es")
    }
    #expect(service.connections == 2)
    #expect(translator.hasEnded)
  }

  /// A hello this client cannot read, as an older service's answer to a
  /// hello of another version, makes the service unavailable (the direct
  /// path, with a note): it closes after answering and runs nothing.
  @Test func anUnreadableHelloAfterAPipelinedRequestMeansAnotherService() throws {
    let runtime = try TemporaryDirectory()
    let service = try StandIn(.garbledHello, runtime: runtime.path)
    let client = try #require(ServiceClient.running(environment: ["XDG_RUNTIME_DIR": runtime.path]))
    let unreadable = ServiceError.badReply(service.location.socket, reason: "malformed message: unknown reply 99")
    #expect(throws: ServiceError.unavailable(unreadable)) { try client.translate(["hi"], from: "en", to: "es") }
    #expect(ServiceError.unavailable(unreadable).directPathNotice != nil)
  }

  @Test func anUnreadableHelloIsReportedAsSuch() throws {
    let service = try StandIn(.garbledHello)
    #expect(throws: ServiceError.badReply(service.location.socket, reason: "malformed message: unknown reply 99")) {
      try ServiceClient.connect(to: service.location)
    }
  }

  @Test func aServiceOfAnotherVersionIsNotUsedAndTheUserIsToldWhy() throws {
    let runtime = try TemporaryDirectory()
    let service = try StandIn(.otherVersion, runtime: runtime.path)
    let client = try #require(ServiceClient.running(environment: ["XDG_RUNTIME_DIR": runtime.path]))
    let mismatch = ServiceError.versionMismatch(service: 99, client: ServiceProtocol.version)
    #expect(throws: ServiceError.unavailable(mismatch)) { try client.translate(["hi"], from: "en", to: "es") }
    #expect(ServiceError.unavailable(mismatch).directPathNotice == "not using the translation-host service: \(mismatch)")
    #expect(service.connections == 1)
  }

  /// A client that may wait for a restarting service (`waiting`) connects
  /// as soon as the service's socket appears, woken by the change, whether
  /// the folder was missing, empty, or held the socket of a service that died.
  @Test(arguments: ["no folder", "an empty folder", "a dead service's socket"])
  func aWaitingClientConnectsOnceTheServiceListens(before: String) throws {
    let runtime = try TemporaryDirectory()
    let location = try #require(ServiceLocation.standard(environment: ["XDG_RUNTIME_DIR": runtime.path]))
    if before != "no folder" { try UnixSocket.makeFolder(location.folder, mode: 0o700) }
    if before == "a dead service's socket" { Syscalls.close(try UnixSocket.listen(at: location.socket)) }
    final class Later: @unchecked Sendable {
      var service: StandIn?
      let started = DispatchSemaphore(value: 0)
    }
    let later = Later()
    Thread {
      Syscalls.sleep(for: .milliseconds(300))
      later.service = try? StandIn(.silent, runtime: runtime.path, replacing: before == "a dead service's socket")
      later.started.signal()
    }.start()
    let begin = ContinuousClock.now
    let client = try ServiceClient.connect(to: location, waiting: .seconds(60))
    #expect(ContinuousClock.now - begin < .seconds(60), "woken by the socket, not by the deadline")
    later.started.wait()
    #expect(later.service?.connections == 1)
    withExtendedLifetime(client) {}
  }
}
