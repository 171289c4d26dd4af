import CDispatchMainQueue
import RunnerProtocol
import System

/// The runner's loop: load the provider named by `hello`, then answer
/// requests one at a time until the host closes the socket.
///
/// The runner is where isolation belongs (DESIGN §6): whatever policy a
/// provider gets must be in force before `hello` loads its code.
package final class RunnerService {
  private let channel: FrameChannel
  /// The layers in force, or why the sandbox could not be set up (then no provider is loaded).
  private let sandbox: Result<[SandboxLayer], SandboxError>
  private var provider: LoadedProvider?
  private var scene: ProviderScene?
  /// Set by the provider's `finish` (from any thread); read after each request.
  private let sceneFinished = AtomicFlag()
  /// Set while a scene request runs its action; render requests raised then
  /// are dropped, because the reply carries a fresh rendering anyway.
  private let isActing = AtomicFlag()
  /// What the provider's `tp.translate.stream/1` calls take texts from and answer to.
  private lazy var streamPort = TranslationStreamPort { [logPrefix] in Self.write(logPrefix + "warning: \($0)") }

  /// What starts each line the runner writes to stderr: nothing in a
  /// sandboxed runner (the host prefixes its output), the provider's name in process.
  private let logPrefix: String
  /// Whether this loop runs on the process's main thread and runs the main
  /// dispatch queue (and so the main actor) between requests.
  private let drivesMainQueue: Bool

  /// `drivesMainQueue`: true only on the process's main thread (the runner's
  /// loop, and `--in-process`'s once the command moved off that thread).
  package init(
    channel: FrameChannel, sandbox: Result<[SandboxLayer], SandboxError>, logPrefix: String = "",
    drivesMainQueue: Bool = false
  ) {
    self.channel = channel
    self.sandbox = sandbox
    self.logPrefix = logPrefix
    self.drivesMainQueue = drivesMainQueue
  }

  package func run() {
    var deferred: RunnerRequest?
    while true {
      let request: RunnerRequest
      if let waiting = deferred {
        request = waiting
        deferred = nil
      } else {
        do {
          if drivesMainQueue { try waitForRequest() }
          request = try channel.receive(RunnerRequest.self)
        } catch {
          if error != .closed { log("runner: \(error)") }
          break
        }
      }
      if case .translate(let source, let target, let texts) = request, !texts.isEmpty, let provider {
        // An open batch, when the provider has one: the requests that come
        // while it works join it, and each is answered as soon as it is done.
        let stream = RunnerTranslationStream(
          channel: channel, source: source, target: target, texts: texts,
          warn: { [logPrefix] in Self.write(logPrefix + "warning: \($0)") })
        if ProviderTranslator.serve(stream, through: streamPort, provider: provider) {
          if let failure = stream.channelFailure {
            if failure != .closed { log("runner: \(failure)") }
            break
          }
          if stream.sendFailure != nil { break }
          deferred = stream.deferred
          continue
        }
      }
      let reply = answer(request)
      do {
        try channel.send(RunnerMessage.reply(reply))
      } catch .oversized(let size) {
        // Said, not ended in silence: the host would only see a runner that exited.
        let failure = RunnerFailure(kind: .provider, message: Self.tooLarge("answer", size) + "; translate less text at once")
        do { try channel.send(RunnerMessage.reply(.failure(failure))) } catch { break }
      } catch {
        break
      }
    }
    scene?.destroy()
    scene = nil
    provider = nil
  }

  /// Runs the main queue's work until a request begins to arrive: the
  /// provider's main thread is this one, as an app's is its run loop's, so
  /// `DispatchQueue.main.async` and `MainActor` work done between requests
  /// (a finished translation, a `.task`) runs here, interleaved with the
  /// host's calls and never concurrently with them.
  private func waitForRequest() throws(ProtocolError) {
    let mainQueue = FileDescriptor(rawValue: tp_main_queue_descriptor())
    while channel.pendingByteCount == 0 {
      let ready: [PollEvents]
      do {
        ready = try Syscalls.poll([(channel.descriptor, .readable), (mainQueue, .readable)])
      } catch {
        throw .io(error)
      }
      if !ready[1].isEmpty { tp_main_queue_drain() }
      if !ready[0].isEmpty { return }
    }
  }

  private func answer(_ request: RunnerRequest) -> RunnerReply {
    switch request {
    case .hello(let version, _, let bundlePath, let executablePath, let settings):
      guard version == Runner.protocolVersion else {
        return .failure(
          RunnerFailure(
            kind: .request, message: ProtocolError.versionMismatch(host: version, runner: Runner.protocolVersion).description))
      }
      return hello(bundlePath: bundlePath, executablePath: executablePath, settings: settings)
    case .describeSandbox:
      switch sandbox {
      case .success(let layers): return .sandbox(layers)
      case .failure(let error): return .failure(RunnerFailure(kind: .sandbox, message: error.description))
      }
    case .openScene(let text, let allowsReplacement, let source, let target):
      return openScene(text, allowsReplacement, source, target)
    case .render:
      return render()
    case .performAction(let id):
      return sceneCall { scene throws(ProviderError) in try scene.performAction(id) }
    case .setText(let id, let value):
      return sceneCall { scene throws(ProviderError) in try scene.setText(id, to: value) }
    case .closeScene:
      scene?.destroy()
      scene = nil
      return .done
    case .translate(let source, let target, let texts):
      return translatorCall { translator throws(ProviderError) in
        .translations(try translator.translate(texts, from: source, to: target))
      }
    case .ping:
      return .done
    case .languages:
      return translatorCall { translator throws(ProviderError) in .languages(try translator.languages()) }
    }
  }

  private func hello(bundlePath: String, executablePath: String, settings: String) -> RunnerReply {
    guard provider == nil else { return .failure(RunnerFailure(kind: .request, message: "hello sent twice")) }
    let layers: [SandboxLayer]
    switch sandbox {
    case .success(let applied): layers = applied
    case .failure(let error): return .failure(RunnerFailure(kind: .sandbox, message: error.description))
    }
    do {
      let (threshold, prefix) = (Self.logThreshold, logPrefix)
      let loaded = try LoadedProvider(executablePath: executablePath, bundlePath: bundlePath, settingsJSON: settings) {
        level, message in
        guard level.rawValue >= threshold.rawValue else { return }
        Self.write(prefix + "\(level): \(message)")
      }
      provider = loaded
      return .ready(
        protocolVersion: Runner.protocolVersion, providerABI: "\(loaded.abiVersion.major).\(loaded.abiVersion.minor)",
        capabilities: loaded.capabilities, sandbox: layers)
    } catch {
      return .failure(RunnerFailure(kind: .load, message: error.description))
    }
  }

  private func openScene(_ text: String?, _ allowsReplacement: Bool, _ source: String?, _ target: String?) -> RunnerReply {
    guard let provider else { return notReady() }
    scene?.destroy()
    sceneFinished.value = false
    do {
      let channel = channel
      let finished = sceneFinished
      let isActing = isActing
      let prefix = logPrefix
      scene = try ProviderScene(
        provider: provider, inputText: text, allowsReplacement: allowsReplacement, sourceLanguage: source,
        targetLanguage: target,
        onEvent: { event in
          if event == .renderRequested && isActing.value { return }
          // The event goes out before the flag is set, so a reply that says
          // "finished" can never overtake the event that carries the result.
          do throws(ProtocolError) {
            try channel.send(RunnerMessage.event(event))
          } catch .oversized(let size) {
            // The host must not see "finished" without the text: it ends the scene as a violation.
            try? channel.send(RunnerMessage.event(.violation(Self.tooLarge("replacement", size))))
          } catch {}
          if case .finished = event { finished.value = true }
        },
        onWarning: { Self.write(prefix + "warning: \($0)") })
    } catch {
      return .failure(RunnerFailure(kind: .provider, message: error.description))
    }
    return render()
  }

  private func render() -> RunnerReply {
    sceneCall { _ in }
  }

  /// Runs `body` on the scene, then answers with `finished` or a fresh rendering.
  private func sceneCall(_ body: (ProviderScene) throws(ProviderError) -> Void) -> RunnerReply {
    guard let scene else { return .failure(RunnerFailure(kind: .request, message: "no scene is open")) }
    do {
      isActing.value = true
      defer { isActing.value = false }
      try body(scene)
      isActing.value = false
      if sceneFinished.value { return .finished }
      let json = try scene.render()
      guard let text = String(validating: json, as: UTF8.self) else {
        return .failure(RunnerFailure(kind: .provider, message: "the view tree is not valid UTF-8"))
      }
      return .view(json: text)
    } catch {
      return .failure(RunnerFailure(error))
    }
  }

  private func translatorCall(_ body: (ProviderTranslator) throws(ProviderError) -> RunnerReply) -> RunnerReply {
    guard let provider else { return notReady() }
    do {
      return try body(try ProviderTranslator(provider: provider))
    } catch {
      return .failure(RunnerFailure(error))
    }
  }

  /// Why a message of `size` bytes (the provider's `what`) could not be sent.
  private static func tooLarge(_ what: String, _ size: Int) -> String {
    "the provider's \(what) of \(size) bytes is more than the runner protocol carries (\(FrameChannel.maximumFrameSize) bytes)"
  }

  private func notReady() -> RunnerReply {
    .failure(RunnerFailure(kind: .request, message: "no provider is loaded; send hello first"))
  }

  /// The least severe provider log line shown: `$TRANSLATION_HOST_LOG`
  /// (`debug`, `info`, `warning` or `error`), `warning` by default.
  private static let logThreshold: ProviderLogLevel = {
    let wanted = Syscalls.environmentVariable("TRANSLATION_HOST_LOG") ?? ""
    return [ProviderLogLevel.debug, .info, .warning, .error].first { $0.description == wanted } ?? .warning
  }()

  private func log(_ message: String) { Self.write(logPrefix + "runner: \(message)") }

  private static func write(_ line: String) {
    try? Syscalls.writeAll(.standardError, line + "\n")
  }
}
