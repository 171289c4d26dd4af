import CTranslationProvider
import Synchronization

/// The SDK's `TranslationUIProviderContext`: the host's `tp_context`, with
/// Apple's rules applied before anything reaches the host.
///
/// - `finish(translation:)` counts once; later calls are ignored and logged.
/// - A translation when replacement is not allowed is dropped (finish with nil).
/// - After the scene is destroyed, nothing reaches the host any more.
final class HostContext: TranslationUIProviderContext, @unchecked Sendable {
  // Observable as Apple's context; its properties never change within a scene.
  let inputText: AttributedString?
  let allowsReplacement: Bool
  let sourceLanguage: String?
  let targetLanguage: String?
  private let context: UnsafePointer<tp_context>
  /// The instance whose log warnings go to; nil: the active one's.
  private let instance: ProviderInstance?
  private let lock = Mutex(Phase.open)

  private enum Phase { case open, finished, destroyed }

  init(_ context: UnsafePointer<tp_context>, instance: ProviderInstance? = nil) {
    self.context = context
    self.instance = instance
    let c = context.pointee
    inputText = c.has_input_text ? AttributedString(c.input_text.string) : nil
    allowsReplacement = c.allows_replacement
    sourceLanguage = c.source_language.map { String(cString: $0) }
    targetLanguage = c.target_language.map { String(cString: $0) }
  }

  func finish(translation: AttributedString?) {
    let previous = lock.withLock { phase in
      defer { if phase == .open { phase = .finished } }
      return phase
    }
    switch previous {
    case .finished:
      log("finish(translation:) was called again after the scene finished; ignored")
      return
    case .destroyed:
      log("finish(translation:) was called after the scene was closed; ignored")
      return
    case .open:
      break
    }
    guard let finish = context.pointee.finish else { return }
    if let translation, allowsReplacement {
      String(translation.characters).withTPString { text in
        withUnsafePointer(to: text) { finish(context, $0) }
      }
    } else {
      finish(context, nil)
    }
  }

  func expandSheet() {
    guard isOpen, let expand = context.pointee.expand_sheet else { return }
    expand(context)
  }

  /// Asks the host to render again; state changes call this.
  func requestRender() {
    guard isOpen, let request = context.pointee.request_render else { return }
    request(context)
  }

  /// Cuts the context off the host; the scene is being destroyed.
  func close() {
    lock.withLock { $0 = .destroyed }
  }

  private func log(_ message: String) {
    if let instance { instance.log(.warning, message) } else { ProviderRuntime.log(.warning, message) }
  }

  private var isOpen: Bool { lock.withLock { $0 == .open } }
}
