import CTranslationProvider
import Glibc
import Synchronization
import TranslationViewTree

/// A provider loaded into the host's own process, for `--in-process`
/// debugging only: no sandbox, no deadline (a hang hangs the host), and a
/// crash takes the host down. It exists so that a provider can be stepped
/// through in a debugger attached to `translation-host`.
package final class InProcessSession: ProviderSession {
  package let bundle: ProviderBundle
  package var capabilities: [String] { provider.capabilities }

  package let timeout: Double
  package private(set) var wantsExpandedSheet = false

  private let provider: LoadedProvider
  private var scene: ProviderScene?
  private let events = EventQueue()
  private var finished: String??

  /// Loads `bundle`'s shared object into this process.
  package init(bundle: ProviderBundle, timeout: Double, settings: String = "{}") throws(RunnerError) {
    self.bundle = bundle
    self.timeout = timeout
    do {
      provider = try LoadedProvider(
        executablePath: bundle.executablePath, bundlePath: bundle.path, settingsJSON: settings
      ) { level, message in
        guard level.rawValue >= ProviderLogLevel.warning.rawValue else { return }
        var line = "translation-host: provider '\(bundle.identifier)': \(level): \(message)\n"
        line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
      }
    } catch {
      throw .loadFailed(provider: bundle.identifier, message: error.description)
    }
  }

  package func openScene(
    inputText: String?, allowsReplacement: Bool, sourceLanguage: String?, targetLanguage: String?
  ) throws(RunnerError) -> SceneUpdate {
    scene?.destroy()
    finished = nil
    let identifier = bundle.identifier
    let events = events
    do {
      scene = try ProviderScene(
        provider: provider, inputText: inputText, allowsReplacement: allowsReplacement, sourceLanguage: sourceLanguage,
        targetLanguage: targetLanguage, onEvent: { event in events.append(event) },
        onWarning: { message in
          var line = "translation-host: provider '\(identifier)': warning: \(message)\n"
          line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        })
    } catch {
      throw .providerFailed(provider: identifier, status: nil, message: error.description)
    }
    return try update()
  }

  package func performAction(_ id: String) throws(RunnerError) -> SceneUpdate {
    try call { scene throws(ProviderError) in try scene.performAction(id) }
  }

  package func setText(_ id: String, to value: String) throws(RunnerError) -> SceneUpdate {
    try call { scene throws(ProviderError) in try scene.setText(id, to: value) }
  }

  package func render() throws(RunnerError) -> SceneUpdate { try update() }

  package func waitForChange(until deadline: UInt64) throws(RunnerError) -> SceneUpdate {
    while events.isEmpty {
      guard Syscalls.monotonicNanoseconds() < deadline else {
        throw .deadlineExceeded(provider: bundle.identifier, seconds: timeout)
      }
      usleep(1_000)
    }
    return try update()
  }

  package func takeChange() throws(RunnerError) -> SceneUpdate? {
    events.isEmpty ? nil : try update()
  }

  package func closeScene() throws(RunnerError) {
    scene?.destroy()
    scene = nil
  }

  package func translate(_ texts: [String], from source: String, to target: String) throws(RunnerError) -> [String] {
    do {
      return try ProviderTranslator(provider: provider).translate(texts, from: source, to: target)
    } catch {
      throw failure(error)
    }
  }

  package func languages() throws(RunnerError) -> [LanguagePairStatus] {
    do {
      return try ProviderTranslator(provider: provider).languages()
    } catch {
      throw failure(error)
    }
  }

  package func close() {
    scene?.destroy()
    scene = nil
  }

  /// Never: a provider in this process ends only with the process.
  package var hasEnded: Bool { false }

  /// Does nothing: the provider runs on the caller's thread and cannot be
  /// stopped from another (one more reason this is for debugging only).
  package var interruption: @Sendable () -> Void { {} }

  private func call(_ body: (ProviderScene) throws(ProviderError) -> Void) throws(RunnerError) -> SceneUpdate {
    guard let scene else { throw .providerFailed(provider: bundle.identifier, status: nil, message: "no scene is open") }
    do { try body(scene) } catch { throw failure(error) }
    return try update()
  }

  /// Applies the events that arrived, then renders unless the scene finished.
  private func update() throws(RunnerError) -> SceneUpdate {
    for event in events.takeAll() {
      switch event {
      case .finished(let translation) where finished == nil: finished = .some(translation)
      case .violation(let message): throw .violation(provider: bundle.identifier, message)
      case .expandSheet: wantsExpandedSheet = true
      default: break
      }
    }
    if let finished { return .finished(translation: finished) }
    guard let scene else { throw .providerFailed(provider: bundle.identifier, status: nil, message: "no scene is open") }
    do {
      return .view(try ViewTree.decode(try scene.render()))
    } catch let error as ViewTreeError {
      throw .invalidViewTree(provider: bundle.identifier, error.description)
    } catch let error as ProviderError {
      throw failure(error)
    } catch {
      throw .providerFailed(provider: bundle.identifier, status: nil, message: "\(error)")
    }
  }

  private func failure(_ error: ProviderError) -> RunnerError {
    RunnerError(RunnerFailure(error), provider: bundle.identifier)
  }
}

/// Events a provider raised, from any thread, until the host takes them.
private final class EventQueue: Sendable {
  private let pending = Mutex<[ProviderScene.Event]>([])

  func append(_ event: ProviderScene.Event) { pending.withLock { $0.append(event) } }
  var isEmpty: Bool { pending.withLock { $0.isEmpty } }
  func takeAll() -> [ProviderScene.Event] {
    pending.withLock { events in
      defer { events.removeAll() }
      return events
    }
  }
}
