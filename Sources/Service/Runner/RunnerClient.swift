import Core
import FoundationEssentials
import RunnerProtocol
import System
import TranslationViewTree

/// The host's handle on one provider running in its own
/// `translation-provider-runner` process.
///
/// Three parts: the process is started by `RunnerProcess.start`, requests
/// and their deadlines go through `RunnerConnection` (which ends a runner
/// that breaks the protocol), and what the scene said between replies is
/// kept in `RunnerScene`. Here: the provider's answers, read as the SDK
/// means them. View trees are validated, and Apple's replacement rules are
/// applied here again: a replacement that was not allowed is dropped, and a
/// second finish is a violation.
package final class RunnerClient: SceneSession {
  package let bundle: ProviderBundle
  package private(set) var capabilities: [Capability] = []
  /// Whether the provider answered a table for an id it cannot know (`Capability.unknownProbe`).
  package private(set) var answersUnknownCapability = false
  /// The ABI version the provider declares ("1.1"), once loaded.
  package private(set) var providerABI = ""
  /// The isolation layers the runner put in force.
  package private(set) var sandbox: [SandboxLayer] = []
  /// Set when the provider asked, outside a request, to be drawn again.
  package var needsRender: Bool { scene.needsRender }
  /// Set when the provider asked for more room (`expandSheet`).
  package var wantsExpandedSheet: Bool { scene.wantsExpandedSheet }

  /// How long each request may take; the resident service sets it per request.
  package var timeout: Duration {
    get { connection.timeout }
    set { connection.timeout = newValue }
  }

  private let connection: RunnerConnection
  private var scene = RunnerScene()

  /// The bundle's folder as the runner sees it: the real path its policy shows.
  private let shownBundlePath: String

  private init(
    bundle: ProviderBundle, shownBundlePath: String, channel: FrameChannel, process: RunnerProcess,
    containerCheck: ContainerCheck? = nil, timeout: Duration
  ) {
    self.bundle = bundle
    self.shownBundlePath = shownBundlePath
    connection = RunnerConnection(
      provider: bundle.identifier, channel: channel, process: process, containerCheck: containerCheck, timeout: timeout)
  }

  deinit { close() }

  /// Starts a runner for `bundle` under `policy` and has it load the provider
  /// with `settings` (a JSON object; see `SettingsStore`).
  /// - Parameter timeout: how long each request may take.
  package static func launch(
    bundle: ProviderBundle, policy: SandboxPolicy, runnerPath: String, timeout: Duration, settings: String = "{}"
  ) throws(HostError) -> RunnerClient {
    let client = try spawn(bundle: bundle, policy: policy, runnerPath: runnerPath, timeout: timeout)
    try client.hello(settings: settings)
    return client
  }

  /// Starts a sandboxed runner for `bundle` as every front end does: under the
  /// bundle's own policy, with the runner found next to the host and the
  /// user's settings for the provider.
  package static func launch(
    bundle: ProviderBundle, timeout: Duration, environment: [String: String] = ProcessInfo.processInfo.environment,
    settingOverrides: [String: SettingValue] = [:]
  ) throws(HostError) -> RunnerClient {
    let launch = try RunnerLaunch(bundle: bundle, environment: environment, settingOverrides: settingOverrides)
    return try RunnerClient.launch(
      bundle: bundle, policy: launch.policy, runnerPath: launch.runnerPath, timeout: timeout, settings: launch.settings)
  }

  /// The second half of `launch`: has the runner load the provider with
  /// `settings`, within the deadline; a runner that fails it is ended.
  package func hello(settings: String) throws(HostError) {
    let reply = try request(
      .hello(
        protocolVersion: Runner.protocolVersion, bundleIdentifier: bundle.identifier, bundlePath: shownBundlePath,
        // The runner's working folder is its private root: a relative path would not be found.
        executablePath: shownBundlePath + "/" + (bundle.executablePath.split(separator: "/").last.map(String.init) ?? ""),
        settings: settings))
    guard case .ready(let version, let abi, let capabilities, let sandbox) = reply else {
      throw connection.unexpected(reply)
    }
    guard version == Runner.protocolVersion else {
      throw connection.protocolViolation(.versionMismatch(host: Runner.protocolVersion, runner: version))
    }
    self.capabilities = capabilities.filter { $0 != .unknownProbe }
    streamsTranslations = capabilities.contains(.translateStream)
    answersUnknownCapability = capabilities.contains(.unknownProbe)
    providerABI = abi
    self.sandbox = sandbox
  }

  /// The layers a runner puts in force for `bundle` under `policy` on this
  /// machine, found by starting one that loads nothing.
  package static func probeSandbox(
    bundle: ProviderBundle, policy: SandboxPolicy, runnerPath: String, timeout: Duration
  ) throws(HostError) -> [SandboxLayer] {
    let client = try spawn(bundle: bundle, policy: policy, runnerPath: runnerPath, timeout: timeout)
    defer { client.close() }
    let reply = try client.request(.describeSandbox)
    guard case .sandbox(let layers) = reply else { throw client.connection.unexpected(reply) }
    return layers
  }

  /// The first half of `launch`: starts the runner process, which waits for
  /// `hello`. Split so that the resident service can spawn on the thread
  /// the runner's parent-death signal follows, and load the provider (which
  /// may take long, or hang until the deadline) on the caller's thread.
  package static func spawn(
    bundle: ProviderBundle, policy: SandboxPolicy, runnerPath: String, timeout: Duration
  ) throws(HostError) -> RunnerClient {
    let (socket, process) = try RunnerProcess.start(bundle: bundle, policy: policy, runnerPath: runnerPath)
    return RunnerClient(
      bundle: bundle, shownBundlePath: policy.bundlePath, channel: FrameChannel(fd: socket), process: process,
      containerCheck: policy.container.map { ContainerCheck(provider: bundle.identifier, container: $0, limits: policy.limits) },
      timeout: timeout)
  }

  /// A client for the runner loop serving `socket` on a thread of this
  /// process (`--in-process`); `hello` loads the provider there.
  package static func inProcess(bundle: ProviderBundle, socket: FileDescriptor, timeout: Duration) -> RunnerClient {
    RunnerClient(
      bundle: bundle, shownBundlePath: bundle.path, channel: FrameChannel(fd: socket), process: .inProcess, timeout: timeout)
  }

  /// Whether the runner ended (crashed, exited, missed a deadline, broke a rule).
  package var hasEnded: Bool { connection.hasEnded }

  /// Kills the runner's process group (its pid is the group's): the request
  /// in progress fails as a runner that ended, and the client stays
  /// consistent, since only the kernel is touched from the other thread.
  package var interruption: @Sendable () -> Void { connection.interruption }

  /// Whether an idle runner may take the next request: it has not ended, and
  /// nothing arrived on its socket since the last reply (a runner that closed
  /// its end, or speaks out of turn, is not trusted with another request).
  package var isReady: Bool { connection.isReady }

  /// `isReady`, without the `poll` of the socket when the caller's own
  /// `poll` found it with nothing to read since the last reply (`socketFoundQuiet`).
  package func isReady(socketFoundQuiet: Bool) -> Bool {
    socketFoundQuiet ? connection.isReadyAsFarAsKnown : connection.isReady
  }

  /// The socket to the runner, to `poll` beside other descriptors.
  package var socket: FileDescriptor { connection.descriptor }

  /// How many times the resident service's pool handed this runner out
  /// (`RunnerPool`, under its lock): whether it changed hands since a given time.
  package var checkouts = 0

  /// Creates the provider's selected-text scene.
  package func openScene(
    inputText: String?, allowsReplacement: Bool, sourceLanguage: String?, targetLanguage: String?
  ) throws(HostError) -> SceneUpdate {
    scene.open(allowsReplacement: allowsReplacement)
    return try sceneUpdate(
      .openScene(
        inputText: inputText, allowsReplacement: allowsReplacement, sourceLanguage: sourceLanguage,
        targetLanguage: targetLanguage))
  }

  /// Presses the control `id`.
  package func performAction(_ id: String) throws(HostError) -> SceneUpdate {
    try sceneUpdate(.performAction(id: id))
  }

  /// Sets the text field `id` to `value`.
  package func setText(_ id: String, to value: String) throws(HostError) -> SceneUpdate {
    try sceneUpdate(.setText(id: id, value: value))
  }

  /// Destroys the scene, keeping the provider loaded.
  package func closeScene() throws(HostError) {
    let reply = try request(.closeScene)
    guard reply == .done else { throw connection.unexpected(reply) }
  }

  /// Draws the scene again.
  package func render() throws(HostError) -> SceneUpdate {
    scene.needsRender = false
    return try sceneUpdate(.render)
  }

  /// Waits until `deadline` for the provider to finish
  /// or ask to be drawn again; returns the scene's state after that.
  package func waitForChange(until deadline: ContinuousClock.Instant) throws(HostError) -> SceneUpdate {
    while !scene.hasChange {
      let message = try receive(deadline: deadline)
      if case .reply(let reply) = message { throw connection.unexpected(reply) }
    }
    return try change()!
  }

  /// Waits until `deadline` for the provider to finish or ask to be drawn
  /// again, or until `other` becomes readable (the resident service's
  /// client sent its next request); nil without a change.
  package func waitForChange(
    until deadline: ContinuousClock.Instant, orUntilReadable other: FileDescriptor
  ) throws(HostError) -> SceneUpdate? {
    try connection.throwIfEnded()
    while !scene.hasChange {
      if !connection.hasPendingInput {
        let ready: [Bool]
        do {
          ready = try UnixSocket.waitReadable([connection.descriptor, other], timeout: max(deadline - .now, .zero))
        } catch {
          throw HostError(.failure, "could not wait for the provider's changes: \(error)")
        }
        guard ready[0] else { return nil }
      }
      // A frame that has started arriving gets the usual deadline to complete.
      let message = try receive(deadline: .after(timeout))
      if case .reply(let reply) = message { throw connection.unexpected(reply) }
    }
    return try change()
  }

  /// The runner's socket: readable when the provider sent something, which
  /// `takeChange` then reads. Nothing to arm: the runner speaks unasked.
  package func watchForChange() throws(HostError) -> FileDescriptor {
    try connection.throwIfEnded()
    return connection.descriptor
  }

  package func takeChange() throws(HostError) -> SceneUpdate? {
    try connection.throwIfEnded()
    // A frame that has started arriving gets the usual deadline to complete.
    while !scene.hasChange && connection.hasPendingInput {
      let message = try receive(deadline: .after(timeout))
      if case .reply(let reply) = message { throw connection.unexpected(reply) }
    }
    return try change()
  }

  /// The scene's state after events that arrived outside a request, or nil without any.
  private func change() throws(HostError) -> SceneUpdate? {
    if let violation = scene.violation {
      throw connection.end(.violation(provider: bundle.identifier, violation))
    }
    if let finished = scene.finished { return .finished(translation: finished) }
    return scene.needsRender ? try render() : nil
  }

  /// Translates a batch headlessly.
  package func translate(_ texts: [String], from source: String, to target: String) throws(HostError) -> [String] {
    let reply = try request(.translate(source: source, target: target, texts: texts))
    guard case .translations(let translations) = reply, translations.count == texts.count else {
      throw connection.unexpected(reply)
    }
    return translations
  }

  /// Whether the runner takes its next batch while it translates one
  /// (`sendTranslate`, then `receiveTranslations` in the same order). Known
  /// from the hello: the service asks it of every request's runner, and
  /// searching `capabilities` took some 450 instructions a request.
  package private(set) var streamsTranslations = false

  /// Sends a batch without waiting for its translations (`streamsTranslations`).
  package func sendTranslate(_ texts: [String], from source: String, to target: String) throws(HostError) {
    try connection.send(.translate(source: source, target: target, texts: texts))
  }

  /// The translations of the oldest batch sent and not received, `count` of them, by `deadline`.
  package func receiveTranslations(count: Int, deadline: ContinuousClock.Instant) throws(HostError) -> [String] {
    let reply = try connection.reply(deadline: deadline) { scene.record($0) }
    guard case .translations(let translations) = reply, translations.count == count else {
      throw connection.unexpected(reply)
    }
    return translations
  }

  /// The provider's language pairs.
  package func languages() throws(HostError) -> [LanguagePairStatus] {
    let reply = try request(.languages)
    guard case .languages(let pairs) = reply else { throw connection.unexpected(reply) }
    return pairs
  }

  /// One round trip to the runner, answered without calling the provider.
  package func ping() throws(HostError) {
    let reply = try request(.ping)
    guard reply == .done else { throw connection.unexpected(reply) }
  }

  /// Ends the runner: closes the socket, gives it a moment to exit, then
  /// kills its process group, so nothing it started outlives it.
  package func close() { connection.close() }

  // MARK: Requests

  private func sceneUpdate(_ request: RunnerRequest) throws(HostError) -> SceneUpdate {
    let deadline = ContinuousClock.Instant.after(timeout)
    let reply = try self.request(request, deadline: deadline)
    if let violation = scene.violation {
      throw connection.end(.violation(provider: bundle.identifier, violation))
    }
    if let finished = scene.finished { return .finished(translation: finished) }
    switch reply {
    case .view(let json):
      scene.needsRender = false  // the reply is newer than any request that came before it
      let tree: ViewTree
      do {
        tree = try ViewTree.decode(Array(json.utf8))
      } catch {
        throw connection.end(.invalidViewTree(provider: bundle.identifier, error.description))
      }
      // Reading the tree is work done for the provider, so it counts against
      // the request's deadline: a provider cannot buy host CPU with a huge view.
      guard !deadline.hasPassed else {
        throw connection.end(.deadlineExceeded(provider: bundle.identifier, after: timeout))
      }
      return .view(tree)
    case .finished:
      throw connection.protocolViolation(.malformed("the runner said the scene finished without a finish event"))
    default:
      throw connection.unexpected(reply)
    }
  }

  /// A request through the connection, the scene's events recorded on the way.
  private func request(_ request: RunnerRequest, deadline: ContinuousClock.Instant? = nil) throws(HostError) -> RunnerReply {
    try connection.request(request, deadline: deadline) { scene.record($0) }
  }

  private func receive(deadline: ContinuousClock.Instant) throws(HostError) -> RunnerMessage {
    try connection.receive(deadline: deadline) { scene.record($0) }
  }
}
