import Core
import Foundation
import Glibc
import RunnerProtocol
import Service
import System
import TestSupport
import Testing

/// The resident service may not become a way out of a provider's sandbox:
/// it runs only bundles its own search path lists, and it does not serve
/// its own runners or what they start.
@Suite(.serialized, .tags(.endToEnd)) struct ServiceConfinementTests {
  static let fixture = CFixture.packageRoot + "/Tests/Fixtures/protocol_abuser.c"

  /// A bundle of the protocol abuser built with `mode` (nil: well behaved), in `folder`.
  static func abuser(_ mode: String?, in folder: TemporaryDirectory, name: String = "Abuser") throws -> String {
    let library = try CFixture.compile(fixture, defines: mode.map { [$0] } ?? [], name: "lib\(name)", in: folder)
    return try BundleFixture(name: name).write(name: name, in: folder, library: library)
  }

  /// A service whose search path starts with `folder`.
  static func service(searching folder: TemporaryDirectory) throws -> ServiceProcess {
    try ServiceProcess(environment: ["TRANSLATION_HOST_PROVIDER_PATH": folder.path])
  }

  // MARK: Which bundles it runs

  struct Reference: Sendable, CustomTestStringConvertible {
    var testDescription: String
    /// The bundle path to ask for, from the search folder and a folder outside it.
    var path: @Sendable (_ searched: String, _ outside: String) -> String
  }

  static let outsideReferences: [Reference] = [
    Reference(testDescription: "a bundle in a folder the service does not search") { _, outside in
      outside + "/Abuser.translationprovider"
    },
    Reference(testDescription: "a path that leaves the search folder with '..'") { searched, outside in
      searched + "/../" + URL(fileURLWithPath: outside).lastPathComponent + "/Abuser.translationprovider"
    },
    Reference(testDescription: "a relative path") { _, _ in "Abuser.translationprovider" },
  ]

  /// A provider wrote a bundle (declaring network access) where it could, and
  /// asked the service to run it: the service refuses, naming its search path.
  @Test(arguments: outsideReferences) func aBundleOutsideTheSearchPathIsRefused(_ reference: Reference) throws {
    let searched = try TemporaryDirectory()
    let outside = try TemporaryDirectory()
    try Self.abuser(nil, in: searched)
    var planted = BundleFixture(name: "Abuser")
    planted.info["com.apple.developer.translation-ui-provider.network-access"] = .boolean(true)
    try planted.write(
      name: "Abuser", in: outside, library: try CFixture.compile(Self.fixture, name: "libAbuser", in: outside))
    let service = try Self.service(searching: searched)
    try service.start()
    defer { service.stop() }
    let client = try ServiceClient.connect(to: service.location)
    let path = reference.path(searched.path, outside.path)
    #expect {
      try client.languages(provider: path)
    } throws: { error in
      // A relative path is made absolute by the client; the refusal travels as the registry tells it.
      guard case .reported(let failure)? = error as? ServiceError else { return false }
      return failure.kind == .providerUnavailable && failure.remedy == .bypassService
        && failure.message.contains("its search path (\(searched.path)") && failure.message.contains(path + "' is not one")
    }
    #expect(service.runners().isEmpty, "nothing was started for the planted bundle")
    // The same bundle, reached through the search path, is served.
    #expect(
      try client.translate(["hi"], from: "en", to: "en-x-same", provider: searched.path + "/Abuser.translationprovider") == ["hi"]
    )
  }

  /// The CLI and the library do not send the service a path it would refuse:
  /// a bundle outside the search path (one being developed) runs directly.
  @Test func aBundleOutsideTheSearchPathTakesTheDirectPath() throws {
    let outside = try TemporaryDirectory()
    let bundle = try Self.abuser(nil, in: outside)
    let service = try ServiceProcess()
    try service.start()
    defer { service.stop() }
    let result = try service.run(["translate", "--provider", bundle, "--from", "en", "--to", "en-x-same", "hi"])
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout == "hi\n")
    #expect(service.runners().isEmpty, "the service started no runner for it")
  }

  // MARK: Idle connections

  /// A raw connection that has said hello and read the answer, then stays idle.
  static func idleConnection(to service: ServiceProcess) throws -> FrameChannel {
    let channel = FrameChannel(fd: try UnixSocket.connect(to: service.location.socket))
    try channel.send(ServiceRequest.hello(protocolVersion: ServiceProtocol.version, context: ""))
    let reply = try channel.receive(ServiceReply.self, deadline: .after(.seconds(20)))
    guard case .hello = reply else { throw UnexpectedReply(reply: reply) }
    return channel
  }

  struct UnexpectedReply: Error { var reply: ServiceReply }

  /// Whether the service closed `channel` within `seconds` (it sends nothing first).
  static func isClosed(_ channel: FrameChannel, within seconds: Double) -> Bool {
    do {
      _ = try channel.receive(ServiceReply.self, deadline: .after(.seconds(saturating: seconds)))
      return false
    } catch {
      return error == .closed
    }
  }

  /// Idle connections once filled every place and locked everyone out until
  /// the service restarted. Now they give their places to new connections,
  /// the longest idle first.
  @Test func idleConnectionsDoNotLockOthersOut() throws {
    let service = try ServiceProcess()
    try service.start(["--max-connections", "4"])
    defer { service.stop() }
    let idle = try (0..<4).map { _ in try Self.idleConnection(to: service) }
    let client = try ServiceClient.connect(to: service.location)
    #expect(try client.languages(provider: "Rot13").contains { $0.target == "en-x-rot13" })
    #expect(Self.isClosed(idle[0], within: 20), "the longest idle connection made room")
    // Another newcomer takes the next longest idle connection's place.
    _ = try Self.idleConnection(to: service)
    #expect(Self.isClosed(idle[1], within: 20))
    #expect(!Self.isClosed(idle[3], within: 0.2), "the youngest idle connections stay")
  }

  @Test func anIdleConnectionIsClosedAfterTheTimeout() throws {
    let service = try ServiceProcess.shared()
    try service.start(["--connection-idle-timeout", "0.5"])
    defer { service.stop() }
    let idle = try Self.idleConnection(to: service)
    #expect(Self.isClosed(idle, within: 30))
    // A translator whose connection was closed while idle sends its request again on a new one.
    let translator = try ProviderLaunch.translator(
      provider: "Rot13", timeout: .seconds(30), usesService: true, environment: service.environment, notice: { _ in })
    defer { translator.close() }
    #expect(try translator.translate(["Hello"], from: "en", to: "en-x-rot13") == ["Uryyb"])
    #expect(Self.isClosed(try Self.idleConnection(to: service), within: 30))
    #expect(try translator.translate(["Hello"], from: "en", to: "en-x-rot13") == ["Uryyb"])
    #expect(service.runners().count == 1, "served by the service both times")
  }

  /// Connections at work keep their places: a scene open counts as work.
  @Test func aNewConnectionIsRefusedWhenEveryConnectionIsAtWork() throws {
    let service = try ServiceProcess()
    try service.start(["--max-connections", "1", "--connection-idle-timeout", "0.5"])
    defer { service.stop() }
    let popover = try ServiceClient.connect(to: service.location)
    let session = try popover.openSceneSession(provider: "Reverse", timeout: .seconds(20), notice: { _ in })
    _ = try session.openScene(inputText: "hi", allowsReplacement: false, sourceLanguage: nil, targetLanguage: nil)
    #expect {
      try ServiceClient.connect(to: service.location)
    } throws: { error in
      "\(error)".contains("all 1 connections are at work (--max-connections); try again in a moment")
    }
    // Refusing the newcomer left the scene as it was.
    _ = try session.render()
  }

  // MARK: Who may connect

  /// A provider connects to the service's socket from inside its runner.
  /// It may not reach it (the sandbox hides the runtime folder), or reach it
  /// and be refused; it is never greeted.
  @Test func aRunnerCannotUseTheService() throws {
    let searched = try TemporaryDirectory()
    let knocker = try Self.abuser("KNOCK_ON_SERVICE", in: searched)
    let service = try Self.service(searching: searched)
    try service.start()
    defer { service.stop() }
    let client = try ServiceClient.connect(to: service.location)
    let outcome = try #require(
      try client.translate([service.location.socket], from: "en", to: "en-x-same", provider: knocker).first)
    #expect(outcome != "GREETED")
    if outcome.hasPrefix("ANSWERED:") {
      #expect(
        outcome.contains("a provider runner of this service or a process started by one; providers may not use the service"),
        "\(outcome)")
      let log = try String(contentsOfFile: service.log, encoding: .utf8)
      #expect(log.contains("it is a provider runner of this service, or was started by one"), "\(log)")
    } else {
      #expect(outcome.hasPrefix("UNREACHABLE:"), "\(outcome)")
    }
  }

  // MARK: A runner that speaks out of turn

  struct NextRequest: Sendable, CustomTestStringConvertible {
    var testDescription: String
    /// Whether the next request comes on the same connection (whose wait for
    /// it looks at the runner's socket, `RecentRunner`) or on a new one (the pool's own `poll`).
    var sameConnection: Bool
  }

  static let nextRequests: [NextRequest] = [
    NextRequest(testDescription: "the same client's next request", sameConnection: true),
    NextRequest(testDescription: "another client's request", sameConnection: false),
  ]

  /// A provider writes a reply of its own to the runner's socket ahead of the
  /// runner's: the host takes it for the answer (the provider's answers are
  /// its own), and the runner's real reply comes after, out of turn. That
  /// runner must not answer another request: the reply left in its socket
  /// would be taken for the answer to it, the text of the request before.
  @Test(arguments: nextRequests) func aRunnerThatSpokeOutOfTurnAnswersNoOtherRequest(_ next: NextRequest) throws {
    let searched = try TemporaryDirectory()
    let forger = try Self.abuser("SPEAK_OUT_OF_TURN", in: searched)
    let service = try Self.service(searching: searched)
    try service.start()
    defer { service.stop() }
    let first = try ServiceClient.connect(to: service.location)
    for round in 0..<3 {
      let text = "the text of request \(round)"
      let client = next.sameConnection || round == 0 ? first : try ServiceClient.connect(to: service.location)
      let answer = try client.translate([text], from: "en", to: "en-x-same", provider: forger)
      // The forged reply, from this request's own runner: never the reply left over from the request before.
      #expect(answer == ["FORGED"], "round \(round)")
      // The runner's real reply has arrived by now, out of turn.
      Syscalls.sleep(for: .milliseconds(200))
    }
  }
}
