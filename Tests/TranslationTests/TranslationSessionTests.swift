import Foundation
import Synchronization
import TestSupport
import Testing
import Translation

/// `TranslationSession` against real providers in sandboxed runners.
@Suite struct TranslationSessionTests {
  struct Translation: Sendable, CustomTestStringConvertible {
    var provider: String
    var source: String
    var target: String
    var text: String
    var expected: String
    var testDescription: String { "\(source) → \(target): \(text)" }
  }

  static let rot13Cases = [
    Translation(provider: Providers.rot13, source: "en", target: "en-x-rot13", text: "Hello, world!", expected: "Uryyb, jbeyq!"),
    Translation(provider: Providers.rot13, source: "en-x-rot13", target: "en", text: "Uryyb, jbeyq!", expected: "Hello, world!"),
    Translation(
      provider: Providers.rot13, source: "en", target: "en-x-rot13", text: "Ünïcode stays, ASCII turns",
      expected: "Üaïpbqr fgnlf, NFPVV gheaf"),
  ]

  /// Tags spelled as apps spell them reach Apertium's `en` → `es`, as on
  /// the CLI and D-Bus (the same table: `LanguageTagCases`).
  @Test(arguments: LanguageTagCases.tags)
  func everySpellingOfATagReachesTheProvidersPair(_ source: String, _ target: String) async throws {
    let session = TranslationSession(
      installedSource: Locale.Language(identifier: source), target: Locale.Language(identifier: target),
      provider: Providers.apertium)
    let response = try await session.translate(LanguageTagCases.sentence)
    #expect(response.targetText == LanguageTagCases.translation)
  }

  @Test(arguments: rot13Cases) func translatesWithTheCProvider(_ test: Translation) async throws {
    let session = TranslationSession(installedSource: .tag(test.source), target: .tag(test.target), provider: test.provider)
    let response = try await session.translate(test.text)
    #expect(response.targetText == test.expected)
    #expect(response.sourceText == test.text)
    #expect(response.sourceLanguage == .tag(test.source))
    #expect(response.targetLanguage == .tag(test.target))
    #expect(response.clientIdentifier == nil)
  }

  /// Apertium through the library gives what `apertium -u eng-spa` gives, as
  /// clean text (without the blank Apertium leaves where it drops a pronoun);
  /// a regional source (`en-GB`) is served by the provider's `en`.
  @Test(arguments: [
    ("en", "The cat is on the table."), ("en", "Machine translation works offline, and it is fast."),
    ("en-GB", "The house is big."), ("en", "She reads books in the garden every morning."),
  ])
  func apertiumMatchesTheApertiumCommand(_ source: String, _ text: String) async throws {
    let expected = try Command.run("/usr/bin/apertium", ["-u", "eng-spa"], stdin: text)
    try #require(expected.exitCode == 0, "apertium -u eng-spa: \(expected.stderr)")
    let session = TranslationSession(
      installedSource: Locale.Language(identifier: source), target: .tag("es"), provider: Providers.apertium)
    let response = try await session.translate(text)
    #expect(response.targetText == expected.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    #expect(response.sourceLanguage == Locale.Language(identifier: source))
  }

  /// Apps get clean text, as from Apple's framework: no marks on unknown
  /// words, no blanks at either end (what `apertium -u` prints, trimmed).
  @Test(arguments: ["  My xyzzy dog sleeps. Where is the station?", "Bob's grumblewort is green. "])
  func apertiumGivesCleanText(_ text: String) async throws {
    let unmarked = try Command.run("/usr/bin/apertium", ["-u", "eng-spa"], stdin: text)
    let session = TranslationSession(installedSource: .tag("en"), target: .tag("es"), provider: Providers.apertium)
    let response = try await session.translate(text)
    #expect(response.targetText == unmarked.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    #expect(!response.targetText.contains { "*#@".contains($0) })
  }

  static let requests = (0..<70).map { index in
    TranslationSession.Request(sourceText: index == 5 ? "" : "Line \(index) of the batch", clientIdentifier: "id-\(index)")
  }

  @Test func translationsComeBackInRequestOrder() async throws {
    let session = TranslationSession(installedSource: .tag("en"), target: .tag("en-x-rot13"), provider: Providers.rot13)
    let responses = try await session.translations(from: Self.requests)
    #expect(responses.map(\.clientIdentifier) == Self.requests.map(\.clientIdentifier))
    #expect(responses.map(\.sourceText) == Self.requests.map(\.sourceText))
    #expect(responses[1].targetText == "Yvar 1 bs gur ongpu")
    #expect(responses[5].targetText == "")
    #expect(try await session.translations(from: []).isEmpty)
  }

  @Test func batchResponsesArriveInRequestOrderAcrossChunks() async throws {
    let session = TranslationSession(installedSource: .tag("en"), target: .tag("en-x-rot13"), provider: Providers.rot13)
    var responses: [TranslationSession.Response] = []
    for try await response in session.translate(batch: Self.requests) { responses.append(response) }
    #expect(responses.map(\.clientIdentifier) == Self.requests.map(\.clientIdentifier))
    #expect(responses[69].targetText == "Yvar 69 bs gur ongpu")
    let separately = try await session.translations(from: Self.requests)
    #expect(responses.map(\.targetText) == separately.map(\.targetText))
  }

  struct Refusal: Sendable, CustomTestStringConvertible {
    var provider: String
    var source: String
    var target: String
    var error: TranslationError
    var reason: String
    var testDescription: String { "\(source) → \(target): \(error.errorDescription ?? "")" }
  }

  static let refusals = [
    Refusal(provider: Providers.apertium, source: "en", target: "xx", error: .unsupportedTargetLanguage, reason: "into 'xx'"),
    // Some Debian package would translate into French, only none from English.
    Refusal(provider: Providers.apertium, source: "en", target: "fr", error: .unsupportedLanguagePairing, reason: "'en' → 'fr'"),
    Refusal(provider: Providers.apertium, source: "xx", target: "es", error: .unsupportedSourceLanguage, reason: "from 'xx'"),
    Refusal(
      provider: Providers.apertium, source: "en-US", target: "en-GB", error: .unsupportedLanguagePairing,
      reason: "is one language"),
    Refusal(provider: Providers.apertium, source: "en", target: "ca", error: .notInstalled, reason: "apertium-eng-cat"),
    Refusal(
      provider: Providers.rot13, source: "en-x-rot13", target: "es", error: .unsupportedTargetLanguage, reason: "into 'es'"),
  ]

  @Test(arguments: refusals) func unsupportedPairsThrowApplesErrors(_ test: Refusal) async throws {
    let session = TranslationSession(installedSource: .tag(test.source), target: .tag(test.target), provider: test.provider)
    let error = await #expect(throws: TranslationError.self) { try await session.translate("The cat.") }
    #expect(error.map { test.error ~= $0 } == true, "\(String(describing: error))")
    #expect(error?.failureReason?.contains(test.reason) == true, "\(String(describing: error))")
    let prepared = await #expect(throws: TranslationError.self) { try await session.prepareTranslation() }
    #expect(prepared.map { test.error ~= $0 } == true, "\(String(describing: prepared))")
    #expect(await session.isReady == false)
  }

  @Test func aSessionThatCanTranslateIsReadyAfterPreparing() async throws {
    let session = TranslationSession(installedSource: .tag("en"), target: .tag("en-x-rot13"), provider: Providers.rot13)
    try await session.prepareTranslation()
    #expect(await session.isReady)
    #expect(!session.canRequestDownloads)
  }

  @Test func anEmptyTextIsNothingToTranslate() async throws {
    let session = TranslationSession(installedSource: .tag("en"), target: .tag("en-x-rot13"), provider: Providers.rot13)
    let error = await #expect(throws: TranslationError.self) { try await session.translate("") }
    #expect(error.map { TranslationError.nothingToTranslate ~= $0 } == true)
  }

  @Test func aMissingProviderIsAnInternalErrorThatSaysWhy() async throws {
    let session = TranslationSession(
      installedSource: .tag("en"), target: .tag("es"), provider: "/nonexistent/Gone.translationprovider")
    let error = await #expect(throws: TranslationError.self) { try await session.translate("The cat.") }
    #expect(error.map { TranslationError.internalError ~= $0 } == true)
    #expect(error?.failureReason?.contains("Gone.translationprovider") == true, "\(String(describing: error))")
  }

  @Test func aCrashIsAnInternalErrorAndTheNextRequestStartsTheProviderAgain() async throws {
    let directory = try TemporaryDirectory()
    let provider = try Providers.fixture(["TEXT_TRIGGERS"], in: directory)
    let session = TranslationSession(installedSource: .tag("en"), target: .tag("en-x-upper"), provider: provider)
    #expect(try await session.translate("before").targetText == "BEFORE")
    let error = await #expect(throws: TranslationError.self) { try await session.translate("crash") }
    #expect(error.map { TranslationError.internalError ~= $0 } == true)
    #expect(error?.failureReason?.contains("was killed by SIGSEGV") == true, "\(String(describing: error))")
    #expect(try await session.translate("after").targetText == "AFTER")
  }

  /// The deadline of requests that hang: what stops them is not the
  /// deadline when they end in well under half of it (however loaded the machine).
  static let hangingDeadline = (timeout: Duration.seconds(240), stoppedBefore: Duration.seconds(120))

  /// The hanging fixture's session, directly or through a service of its own
  /// (returned, to stop by its pid: the hanging runner would hold a stop
  /// until its deadline, so the test does not wait for it), and the file the
  /// fixture creates in its container when a request reaches it (the warm-up
  /// request made it; it is removed again).
  private static func hangingFixture(throughService: Bool, in directory: TemporaryDirectory) async throws
    -> (TranslationSession, ServiceProcess?, marker: String)
  {
    let identifier = UniqueName.make("org.example.hanging")
    let provider = try Providers.fixture(["TEXT_TRIGGERS"], in: directory, identifier: identifier)
    let service = throughService ? try Providers.service(searching: [directory]) : nil
    try service?.start()
    let session = TranslationSession(
      installedSource: .tag("en"), target: .tag("en-x-upper"), provider: provider, serviceEnvironment: service?.environment,
      timeout: hangingDeadline.timeout)
    #expect(try await session.translate("warm").targetText == "WARM")
    #expect(service.map { $0.runners().count == 1 } ?? true, "the session went through the service")
    let marker = Providers.requestMarker(
      identifier: identifier, environment: service?.environment ?? ProcessInfo.processInfo.environment)
    try FileManager.default.removeItem(atPath: marker)
    return (session, service, marker)
  }

  /// Starts a request the fixture never answers and waits until it reached
  /// the provider (`marker`). Returns when the request started: its deadline
  /// counts from then or later.
  private static func startHanging(
    _ session: TranslationSession, marker: String
  ) async throws -> (ContinuousClock.Instant, Task<TranslationSession.Response, any Error>) {
    let started = Mutex<ContinuousClock.Instant?>(nil)
    let hanging = Task {
      started.withLock { $0 = .now }
      return try await session.translate("hang")
    }
    // As long as the request's own deadline: on a loaded machine the task may
    // wait long for a thread, and only a request in the provider can be stopped.
    try await eventually("the request to reach the provider (\(marker))", timeout: hangingDeadline.timeout) {
      FileManager.default.fileExists(atPath: marker)
    }
    return (try #require(started.withLock { $0 }), hanging)
  }

  @Test(arguments: [false, true])
  func cancelStopsTheRequestInProgressAndEndsTheSession(throughService: Bool) async throws {
    let directory = try TemporaryDirectory()
    let (session, service, marker) = try await Self.hangingFixture(throughService: throughService, in: directory)
    defer { service?.stop(waiting: 1) }
    let (started, hanging) = try await Self.startHanging(session, marker: marker)
    session.cancel()
    let error = await #expect(throws: TranslationError.self) { try await hanging.value }
    #expect(error.map { TranslationError.alreadyCancelled ~= $0 } == true, "\(String(describing: error))")
    #expect(ContinuousClock.now - started < Self.hangingDeadline.stoppedBefore)
    for call in 0..<2 {
      let later = await #expect(throws: TranslationError.self, "call \(call)") { try await session.translate("hi") }
      #expect(later.map { TranslationError.alreadyCancelled ~= $0 } == true)
    }
    var iterator = session.translate(batch: [.init(sourceText: "hi")]).makeAsyncIterator()
    await #expect(throws: TranslationError.self) { try await iterator.next() }
  }

  @Test(arguments: [false, true])
  func aCancelledTaskStopsItsRequestButNotTheSession(throughService: Bool) async throws {
    let directory = try TemporaryDirectory()
    let (session, service, marker) = try await Self.hangingFixture(throughService: throughService, in: directory)
    defer { service?.stop(waiting: 1) }
    let (started, hanging) = try await Self.startHanging(session, marker: marker)
    // The runner working on it: the only one yet.
    let busy = Set(service?.runners() ?? [])
    hanging.cancel()
    await #expect(throws: CancellationError.self) { try await hanging.value }
    #expect(ContinuousClock.now - started < Self.hangingDeadline.stoppedBefore)
    #expect(try await session.translate("still here").targetText == "STILL HERE")
    // Through the service: a new connection; the first runner was stopped when
    // its client's connection was shut down. (The pool starts a warm one in its
    // place, and "still here" may have been served by yet another: their number
    // says nothing.)
    if let service {
      #expect(busy.count == 1, "runners while the request hung: \(busy)")
      try await eventually("the runner of the cancelled request to be stopped", timeout: .seconds(20)) {
        Set(service.runners()).isDisjoint(with: busy)
      }
    }
  }

  /// A session on a fresh provider that takes seconds in `init` (`SLOW_INIT`),
  /// its request in a task, returned once the provider's runner is up and
  /// still starting (or the request ended first, which the tests' results
  /// would show): what the caller does next happens while the session is
  /// being opened, when there is no runner connection to interrupt yet.
  private static func requestWhileStarting(in directory: TemporaryDirectory)
    async throws -> (TranslationSession, Task<TranslationSession.Response, any Error>)
  {
    let identifier = UniqueName.make("org.example.slowinit")
    let provider = try Providers.fixture(["SLOW_INIT"], in: directory, identifier: identifier)
    let session = TranslationSession(installedSource: .tag("en"), target: .tag("en-x-upper"), provider: provider)
    let ended = Mutex(false)
    let request = Task {
      defer { ended.withLock { $0 = true } }
      return try await session.translate("started")
    }
    try await eventually(
      "the provider's runner to start, or the request to end", timeout: hangingDeadline.timeout, interval: .milliseconds(10)
    ) {
      runnerIsRunning(identifier) || ended.withLock { $0 }
    }
    return (session, request)
  }

  @Test func cancelWhileTheProviderStartsStopsTheRequestAndEndsTheSession() async throws {
    let directory = try TemporaryDirectory()
    let (session, request) = try await Self.requestWhileStarting(in: directory)
    session.cancel()
    let error = await #expect(throws: TranslationError.self) { try await request.value }
    #expect(error.map { TranslationError.alreadyCancelled ~= $0 } == true, "\(String(describing: error))")
    let later = await #expect(throws: TranslationError.self) { try await session.translate("later") }
    #expect(later.map { TranslationError.alreadyCancelled ~= $0 } == true)
  }

  @Test func aTaskCancelledWhileTheProviderStartsStopsItsRequestButNotTheSession() async throws {
    let directory = try TemporaryDirectory()
    let (session, request) = try await Self.requestWhileStarting(in: directory)
    request.cancel()
    await #expect(throws: CancellationError.self) { try await request.value }
    #expect(try await session.translate("still here").targetText == "STILL HERE")
  }
}
