import Core
import Foundation
import Glibc
import RunnerProtocol
import Service
import Synchronization
import System
import TestSupport
import Testing

/// The resident service against hostile and unlucky clients and providers:
/// it answers what it can, refuses what it must, and stays up.
@Suite(.serialized, .tags(.endToEnd)) struct ServiceRobustnessTests {
  static let fixture = CFixture.packageRoot + "/Tests/Fixtures/misbehaving_provider.c"
  static let rot13 = ServiceProcess.buildDirectory + "/lib/translation-host/providers/Rot13.translationprovider"

  /// A bundle of the misbehaving provider built with `mode`, in `folder`.
  static func hostile(_ mode: String, in folder: TemporaryDirectory) throws -> String {
    let library = try CFixture.compile(fixture, defines: [mode], name: "lib\(mode)", in: folder)
    return try BundleFixture(
      name: "Hostile", identifier: "org.example.\(mode.lowercased().replacingOccurrences(of: "_", with: "-"))"
    )
    .write(name: "Hostile", in: folder, library: library)
  }

  static func frame(_ request: ServiceRequest) -> [UInt8] { frame(payload: encoded(request)) }

  static func encoded(_ request: ServiceRequest) -> [UInt8] {
    var writer = WireWriter()
    request.encode(to: &writer)
    return writer.bytes
  }

  static func frame(payload: [UInt8], length: Int? = nil) -> [UInt8] {
    let count = UInt32(length ?? payload.count)
    return [UInt8(count >> 24), UInt8((count >> 16) & 0xff), UInt8((count >> 8) & 0xff), UInt8(count & 0xff)] + payload
  }

  static let hello = frame(.hello(protocolVersion: ServiceProtocol.version, context: ""))

  static func translateWorks(_ service: ServiceProcess) throws {
    let client = try ServiceClient.connect(to: service.location)
    #expect(try client.translate(["Hello"], from: "en", to: "en-x-rot13", provider: rot13) == ["Uryyb"])
  }

  /// A service (not started) that finds the bundles `hostile` writes in
  /// `folder` (it runs only bundles its search path lists).
  static func service(searching folder: TemporaryDirectory) throws -> ServiceProcess {
    try ServiceProcess(environment: ["TRANSLATION_HOST_PROVIDER_PATH": folder.path])
  }

  /// A service (not started) that finds the bundles in the folder of
  /// `bundle`, and the file the misbehaving provider at `bundle` creates in
  /// its container (its HOME) when a translate request reaches it.
  static func markingService(watching bundle: String) throws -> (service: ServiceProcess, marker: String) {
    let folder = URL(fileURLWithPath: bundle).deletingLastPathComponent().path
    let service = try ServiceProcess(environment: ["TRANSLATION_HOST_PROVIDER_PATH": folder])
    let identifier = try ProviderBundle.load(at: bundle).identifier
    let containers = service.environment["XDG_DATA_HOME"]! + "/translation-host/containers/"
    return (service, containers + identifier + "/request-received")
  }

  /// Waits until a request reached the provider: `marker` appeared.
  static func waitUntilReached(_ marker: String) throws {
    try eventually("the request to reach the provider (\(marker))") { FileManager.default.fileExists(atPath: marker) }
  }

  /// A raw connection that has sent hello and `request`, and not read the replies.
  static func send(_ request: ServiceRequest, to service: ServiceProcess) throws -> FileDescriptor {
    let fd: FileDescriptor = try UnixSocket.connect(to: service.location.socket)
    try (hello + frame(request)).withUnsafeBytes { try Syscalls.writeAll(fd, $0) }
    return fd
  }

  // MARK: Many clients

  @Test func aHundredConcurrentClientsEachGetTheirOwnAnswer() throws {
    let service = try ServiceProcess()
    try service.start()
    defer { service.stop() }
    let location = service.location
    let answers = Mutex<[Int: String]>([:])
    let done = DispatchGroup()
    for index in 0..<100 {
      done.enter()
      Thread {
        defer { done.leave() }
        let text = "Client number \(index) says hello"
        let client = try? ServiceClient.connect(to: location)
        let answer = try? client?.translate([text], from: "en", to: "en-x-rot13", provider: ServiceRobustnessTests.rot13).first
        answers.withLock { $0[index] = answer ?? "(failed)" }
      }.start()
    }
    #expect(done.wait(timeout: .now() + 120) == .success)
    let got = answers.withLock { $0 }
    for index in 0..<100 {
      let expected = String("Client number \(index) says hello".map(Self.rot13Character))
      #expect(got[index] == expected, "client \(index)")
    }
    #expect(service.runners().count <= max(2, ProcessInfo.processInfo.activeProcessorCount))
  }

  static func rot13Character(_ character: Character) -> Character {
    guard let ascii = character.asciiValue, character.isLetter else { return character }
    let base: UInt8 = character.isUppercase ? 65 : 97
    return Character(UnicodeScalar((ascii - base + 13) % 26 + base))
  }

  // MARK: Bad requests

  struct BadRequest: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var bytes: [UInt8]
    var reply: String
  }

  static let badRequests: [BadRequest] = [
    BadRequest(
      testDescription: "an unknown request", bytes: hello + frame(payload: [99]), reply: "malformed request: unknown request 99"),
    BadRequest(
      testDescription: "a string that is not UTF-8", bytes: hello + frame(payload: [5, 0, 0, 0, 2, 0xff, 0xfe]),
      reply: "malformed request: a string is not valid UTF-8"),
    BadRequest(
      testDescription: "a list longer than its frame",
      bytes: hello
        + frame(
          payload: {
            var w = WireWriter()
            w.tag(3)
            w.optionalString(nil)
            w.double(1)
            w.string("en")
            w.string("es")
            w.integer(0x7f00_0000)
            return w.bytes
          }()), reply: "malformed request: a list is longer than the message"),
    BadRequest(
      testDescription: "a negative timeout", bytes: hello + frame(.languages(provider: nil, timeout: .seconds(-1))),
      reply: "malformed request: a timeout of -1.0 seconds"),
    BadRequest(
      testDescription: "an oversized frame", bytes: hello + frame(payload: [], length: 0x7fff_ffff),
      reply: "a request of 2147483647 bytes exceeds the 16777216-byte limit"),
    BadRequest(
      testDescription: "a truncated frame", bytes: hello + frame(payload: [3, 0, 0], length: 100),
      reply: "truncated request: the connection closed before the request was whole"),
    BadRequest(testDescription: "no hello first", bytes: frame(.detect(text: "hello")), reply: "the first request must be hello"),
    BadRequest(
      testDescription: "a scene request without a scene", bytes: hello + frame(.performAction(id: "go")),
      reply: "no scene is open; send openScene first"),
  ]

  @Test func badRequestsAreAnsweredAndTheServiceStaysUp() throws {
    let service = try ServiceProcess()
    try service.start()
    defer { service.stop() }
    for test in Self.badRequests {
      let fd: FileDescriptor = try UnixSocket.connect(to: service.location.socket)
      let channel = FrameChannel(fd: fd)
      try test.bytes.withUnsafeBytes { try Syscalls.writeAll(fd, $0) }
      _ = Glibc.shutdown(fd.rawValue, Int32(SHUT_WR))
      var failure: String?
      // The hello's reply comes first when there is a hello.
      while failure == nil, let reply = try? channel.receive(ServiceReply.self, deadline: .after(.seconds(15))) {
        if case .failure(let error) = reply { failure = error.message }
      }
      #expect(failure?.contains(test.reply) == true, "\(test.testDescription): \(failure ?? "no failure reply")")
      try Self.translateWorks(service)
    }
  }

  /// A client of another protocol version gets a hello, whose layout every
  /// version shares (a failure's is not), naming the service's version, and
  /// the connection closes.
  @Test func aClientOfAnotherVersionIsAnsweredWithAHelloItCanRead() throws {
    let service = try ServiceProcess()
    try service.start()
    defer { service.stop() }
    let channel = FrameChannel(fd: try UnixSocket.connect(to: service.location.socket))
    try channel.send(ServiceRequest.hello(protocolVersion: 99, context: ""))
    #expect(
      try channel.receive(ServiceReply.self, deadline: .after(.seconds(5)))
        == .hello(protocolVersion: ServiceProtocol.version, context: ""))
    #expect(throws: ProtocolError.closed) { try channel.receive(ServiceReply.self, deadline: .after(.seconds(5))) }
  }

  @Test func aRequestThatNeverArrivesWholeIsAnsweredAfterItsDeadline() throws {
    let service = try ServiceProcess()
    try service.start()
    defer { service.stop() }
    let fd: FileDescriptor = try UnixSocket.connect(to: service.location.socket)
    let channel = FrameChannel(fd: fd)
    try (Self.hello + Self.frame(payload: [3], length: 50)).withUnsafeBytes { try Syscalls.writeAll(fd, $0) }
    let hello = try channel.receive(ServiceReply.self, deadline: .after(.seconds(5)))
    guard case .hello(ServiceProtocol.version, _) = hello else {
      Issue.record("expected the hello reply, got \(hello)")
      return
    }
    let late = try channel.receive(ServiceReply.self, deadline: .after(.seconds(30)))
    #expect(late == .failure(ServiceError.badRequest("incomplete request: it did not arrive whole within 10 s").hostError))
    try Self.translateWorks(service)
  }

  // MARK: Runners

  @Test func aClientThatLeavesMidRequestDoesNotLeakItsRunner() throws {
    let folder = try TemporaryDirectory()
    let slow = try Self.hostile("SLOW_TRANSLATE", in: folder)
    let (service, marker) = try Self.markingService(watching: slow)
    try service.start(["--runners", "1"])
    defer { service.stop() }
    for _ in 0..<3 {
      unlink(marker)
      let fd = try Self.send(
        .translate(provider: slow, timeout: .seconds(10), source: "en", target: "en-x-upper", texts: ["hi"]), to: service)
      try Self.waitUntilReached(marker)
      Syscalls.close(fd)  // gone before the answer
    }
    // With one runner allowed, each departure must have given it back, or this would wait forever.
    let client = try ServiceClient.connect(to: service.location)
    #expect(try client.translate(["hi"], from: "en", to: "en-x-upper", provider: slow, timeout: .seconds(10)) == ["HI"])
    #expect(service.runners().count == 1)
  }

  /// A client that leaves (or a library `cancel()`, which shuts the
  /// connection down) frees its runner at once, not at the request's deadline.
  @Test func aClientThatLeavesStopsItsRunnerAtOnce() throws {
    let folder = try TemporaryDirectory()
    let triggers = try Self.hostile("TEXT_TRIGGERS", in: folder)
    let (service, marker) = try Self.markingService(watching: triggers)
    try service.start(["--runners", "1"])
    defer { service.stop() }
    let fd = try Self.send(
      .translate(provider: triggers, timeout: .seconds(600), source: "en", target: "en-x-upper", texts: ["hang"]), to: service)
    try Self.waitUntilReached(marker)
    let hanging = try #require(service.runners().first)
    Syscalls.close(fd)
    try eventually("the runner of the departed client to be stopped") { !service.runners().contains(hanging) }
    let client = try ServiceClient.connect(to: service.location)
    #expect(try client.translate(["hi"], from: "en", to: "en-x-upper", provider: triggers, timeout: .seconds(10)) == ["HI"])
  }

  /// Loading a provider happens on the request's thread: one that hangs in
  /// `init` holds up its own request, not another provider's cold start.
  @Test func aProviderThatHangsWhileLoadingDoesNotHoldUpOthers() throws {
    let folder = try TemporaryDirectory()
    let hanging = try Self.hostile("HANG_IN_INIT", in: folder)
    let service = try Self.service(searching: folder)
    try service.start()
    defer { service.stop() }
    let fd = try Self.send(
      .translate(provider: hanging, timeout: .seconds(60), source: "en", target: "en-x-upper", texts: ["hi"]), to: service)
    defer { Syscalls.close(fd) }
    try eventually("the hanging provider's runner to start") { service.runners().count == 1 }
    let stuck = service.runners()[0]
    defer { kill(stuck, SIGKILL) }  // its request then fails at once, and the service stops quickly
    let client = try ServiceClient.connect(to: service.location)
    #expect(
      try client.translate(["Hello"], from: "en", to: "en-x-rot13", provider: Self.rot13, timeout: .seconds(5)) == ["Uryyb"])
  }

  /// Open popovers hold runners of their own: headless requests for the
  /// same provider still get theirs.
  @Test func openScenesDoNotStarveHeadlessRequests() throws {
    let folder = try TemporaryDirectory()
    let provider = try Self.hostile("WELL_BEHAVED", in: folder)
    let service = try Self.service(searching: folder)
    try service.start(["--runners", "1"])
    defer { service.stop() }
    let popovers = try (0..<2).map { _ in try ServiceClient.connect(to: service.location) }
    let sessions = try popovers.map { try $0.openSceneSession(provider: provider, timeout: .seconds(10), notice: { _ in }) }
    for session in sessions {
      _ = try session.openScene(inputText: "hi", allowsReplacement: false, sourceLanguage: nil, targetLanguage: nil)
    }
    let client = try ServiceClient.connect(to: service.location)
    #expect(try client.translate(["hi"], from: "en", to: "en-x-upper", provider: provider, timeout: .seconds(5)) == ["HI"])
    #expect(service.runners().count == 3)
    for session in sessions { try session.closeScene() }
    // Back to the headless limit: the scenes' runners beyond it are closed.
    try eventually("the runners beyond the headless limit to be closed") { service.runners().count == 1 }
  }

  @Test func aCrashingProviderFailsOnlyItsRequest() throws {
    let folder = try TemporaryDirectory()
    let crashing = try Self.hostile("CRASH_IN_TRANSLATE", in: folder)
    let service = try Self.service(searching: folder)
    try service.start()
    defer { service.stop() }
    for _ in 0..<2 {  // the second request gets a fresh runner, and the same one-line error
      let client = try ServiceClient.connect(to: service.location)
      #expect {
        try client.translate(["hi"], from: "en", to: "en-x-upper", provider: crashing)
      } throws: { error in
        "\(error)".hasPrefix("provider 'org.example.crash-in-translate' was killed by SIGSEGV while working")
          && "\(error)".contains("nothing was replaced") && !"\(error)".contains("\n")
      }
      try Self.translateWorks(service)
    }
  }

  @Test func idleRunnersAreClosedAfterTheIdleTimeout() throws {
    let service = try ServiceProcess()
    try service.start(["--idle-timeout", "1"])
    defer { service.stop() }
    try Self.translateWorks(service)
    #expect(service.runners().count == 1)
    try eventually("the idle runner to be closed", timeout: .seconds(10)) { service.runners().isEmpty }
    try Self.translateWorks(service)  // and a new one starts when needed
  }

  /// An idle timeout longer than the machine has been up once made the
  /// service trap when it looked for idle runners (the cutoff underflowed).
  @Test func anIdleTimeoutLongerThanTheUptimeKeepsTheServiceUp() throws {
    let service = try ServiceProcess()
    try service.start(["--idle-timeout", "604800"])
    defer { service.stop() }
    let client = try ServiceClient.connect(to: service.location)
    #expect(try client.translate(["Hello"], from: "en", to: "en-x-rot13", provider: Self.rot13) == ["Uryyb"])
    #expect(try client.translate(["World"], from: "en", to: "en-x-rot13", provider: Self.rot13) == ["Jbeyq"])
    #expect(service.runners().count == 1)
  }

  // MARK: Stopping and restarting

  @Test func sigtermAnswersTheAcceptedRequestThenExitsAndRemovesTheSocket() throws {
    let folder = try TemporaryDirectory()
    let slow = try Self.hostile("SLOW_TRANSLATE", in: folder)
    let (service, marker) = try Self.markingService(watching: slow)
    try service.start()
    // Warm: the request below is only the slow part.
    _ = try ServiceClient.connect(to: service.location).languages(provider: slow)
    let location = service.location
    let answer = Mutex<[String]?>(nil)
    let finished = DispatchSemaphore(value: 0)
    Thread {
      let client = try? ServiceClient.connect(to: location)
      answer.withLock { $0 = try? client?.translate(["late"], from: "en", to: "en-x-upper", provider: slow) }
      finished.signal()
    }.start()
    try Self.waitUntilReached(marker)
    kill(service.pid, SIGTERM)
    #expect(finished.wait(timeout: .now() + 20) == .success)
    #expect(answer.withLock { $0 } == ["LATE"])
    #expect(service.waitForExit(seconds: 20) == 0)
    #expect(!FileManager.default.fileExists(atPath: service.location.socket))
  }

  /// The hello goes ahead of the first request (one round trip), so the
  /// service must not serve a client that sees other folders or variables:
  /// it runs nothing for it, and the client takes the direct path, silently.
  @Test func aClientThatSeesOtherFoldersIsServedNothingAndTakesTheDirectPath() throws {
    let service = try ServiceProcess.shared()
    try service.start()
    defer { service.stop() }
    let elsewhere = service.environment.merging(["TRANSLATION_HOST_LOG": "debug"]) { $1 }
    let client = try #require(ServiceClient.running(environment: elsewhere))
    #expect(throws: ServiceError.unavailable(.otherContext)) {
      try client.translate(["a"], from: "en", to: "en-x-rot13", provider: Self.rot13)
    }
    var notices: [String] = []
    let translator = try ProviderLaunch.translator(
      provider: Self.rot13, timeout: .seconds(30), usesService: true, environment: elsewhere, notice: { notices.append($0) })
    defer { translator.close() }
    #expect(try translator.translate(["a"], from: "en", to: "en-x-rot13") == ["n"])
    #expect(service.runners().isEmpty, "the service ran nothing")
    #expect(notices.isEmpty)
  }

  /// The retry policy (`ServiceTranslator`): a request whose service went
  /// away is sent once more, to the service if it is back, else through a
  /// runner started here; `ServiceClient` alone never sends a request twice.
  @Test func aLostRequestIsSentOnceMoreToTheRestartedServiceOrTheDirectPath() throws {
    let service = try ServiceProcess.shared()
    try service.start()
    let translator = try ProviderLaunch.translator(
      provider: Self.rot13, timeout: .seconds(30), usesService: true, environment: service.environment, notice: { _ in })
    defer { translator.close() }
    #expect(try translator.translate(["a"], from: "en", to: "en-x-rot13") == ["n"])
    let client = try ServiceClient.connect(to: service.location)
    #expect(service.stop() == 0)
    try service.start()
    #expect(throws: ServiceError.connectionLost(service.location.socket)) {
      try client.translate(["b"], from: "en", to: "en-x-rot13", provider: Self.rot13)
    }
    #expect(try translator.translate(["b"], from: "en", to: "en-x-rot13") == ["o"], "sent again to the restarted service")
    #expect(service.runners().count == 1)
    #expect(service.stop() == 0)
    #expect(try translator.translate(["c"], from: "en", to: "en-x-rot13") == ["p"], "sent again through a runner started here")
  }

  // MARK: Who may connect

  @Test(.enabled(if: getuid() == 0, "needs root to act as a second user"))
  func anotherUsersConnectionIsRefusedByItsCredentials() throws {
    let service = try ServiceProcess()
    try service.start()
    defer { service.stop() }
    // Test-only loosening, after the service checked its folder at start:
    // let uid 65534 reach the socket file, so that what stops it is the
    // service's peer-credential check and not the file's permissions.
    chmod(service.home.path, 0o755)
    chmod(service.home.path + "/run", 0o711)
    chmod(service.location.folder, 0o711)
    chmod(service.location.socket, 0o666)
    let script = """
      import socket, struct, sys
      s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
      s.connect(sys.argv[1])
      try:
          s.sendall(bytes.fromhex(sys.argv[2]))
      except OSError:
          pass  # the service may have answered and closed first; its reply is still there to read
      data = b""
      while True:
          try:
              chunk = s.recv(65536)
          except OSError:
              break
          if not chunk: break
          data += chunk
      sys.stdout.write(data[4:].decode("utf-8", "replace"))
      """
    let hello = Self.hello.map { String(format: "%02x", $0) }.joined()
    let result = try Command.run(
      "/usr/bin/setpriv",
      ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script, service.location.socket, hello],
      environment: ["PATH": "/usr/bin:/bin"])
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout.contains("it comes from uid 65534"), "\(result.stdout) \(result.stderr)")
    #expect(result.stdout.contains("serves uid 0 only"))
    #expect(!result.stdout.contains("search="), "no hello reply, so no context was revealed")
    let log = try String(contentsOfFile: service.log, encoding: .utf8)
    #expect(log.contains("refused a connection from uid 65534"))
    try Self.translateWorks(service)
  }

  // MARK: Starting

  struct Start: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var prepare: @Sendable (ServiceProcess) throws -> Void
    var message: String?
  }

  static let starts: [Start] = [
    Start(
      testDescription: "a folder others may enter",
      prepare: { service in
        try FileManager.default.createDirectory(
          atPath: service.location.folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
      },
      message:
        "has mode 755, which lets others in; the service's folder must be a folder owned by you with mode 0700: run 'chmod 700"),
    Start(
      testDescription: "a symbolic link for a folder",
      prepare: { service in
        try FileManager.default.createSymbolicLink(atPath: service.location.folder, withDestinationPath: service.home.path)
      }, message: "is not a folder"),
    Start(
      testDescription: "a stale socket of a dead service",
      prepare: { service in
        try FileManager.default.createDirectory(
          atPath: service.location.folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        Syscalls.close(try UnixSocket.listen(at: service.location.socket))  // bound, then closed: nobody answers
      }, message: nil),
  ]

  /// Giving a folder away takes root (`chown`).
  static let startsAsRoot: [Start] = [
    Start(
      testDescription: "a folder another user owns",
      prepare: { service in
        try FileManager.default.createDirectory(
          atPath: service.location.folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chown(service.location.folder, 65534, 65534)
      }, message: "is owned by uid 65534, not by you")
  ]

  @Test(.enabled(if: getuid() == 0, "needs root to give a folder to another user"), arguments: startsAsRoot)
  func aFolderOfAnotherUserIsRefusedAtStart(_ test: Start) throws {
    try theFolderAndSocketAreCheckedAtStart(test)
  }

  @Test(arguments: starts) func theFolderAndSocketAreCheckedAtStart(_ test: Start) throws {
    let service = try ServiceProcess()
    try test.prepare(service)
    if let message = test.message {
      #expect(throws: ServiceProcess.StartError.self) { try service.start() }
      let log = try String(contentsOfFile: service.log, encoding: .utf8)
      #expect(log.contains(service.location.folder), "\(log)")
      #expect(log.contains(message), "\(log)")
    } else {
      try service.start()
      try Self.translateWorks(service)
      service.stop()
    }
  }

  @Test func socketActivationChecksTheFolderToo() throws {
    let service = try ServiceProcess()
    let folder = service.home.path + "/run/translation-host"
    try FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    let listener = try UnixSocket.listen(at: folder + "/socket")
    defer { Syscalls.close(listener) }
    // Run to its end here: `start` would wait for an answer that systemd's backlog never gives.
    let pid = try Syscalls.spawn(
      "/bin/sh",
      arguments: ["-c", "LISTEN_PID=$$ LISTEN_FDS=1 exec \"$0\" serve 2>\"$1\"", ServiceProcess.executable, service.log],
      environment: service.environment.map { "\($0.key)=\($0.value)" },
      actions: [.duplicate(listener, as: FileDescriptor(rawValue: 3))], newSession: true)
    let status = try Syscalls.wait(pid)
    #expect((status >> 8) & 0xff == 1)
    let log = try String(contentsOfFile: service.log, encoding: .utf8)
    #expect(log.contains("\(folder): has mode 755, which lets others in"), "\(log)")
  }

  @Test func aSecondServiceIsRefusedWhileTheFirstAnswers() throws {
    let service = try ServiceProcess()
    try service.start()
    defer { service.stop() }
    let second = try service.run(["serve"])
    #expect(second.exitCode == 1)
    #expect(second.stderr.contains("a translation-host service is already running on \(service.location.socket)"))
    try Self.translateWorks(service)
  }
}
