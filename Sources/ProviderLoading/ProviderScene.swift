import CTranslationProvider
import Glibc
import RunnerProtocol
import Synchronization

/// A selected-text scene created through the C ABI, with the host's side of
/// its context. Apple's rules are enforced here, whatever the provider does: a
/// replacement when none is allowed becomes "no replacement", and nothing from
/// the provider is accepted after destroy. Finishing twice, or with a
/// replacement that is not UTF-8, is a `violation`.
package final class ProviderScene {
  /// What the provider asked of the host outside a host call.
  package typealias Event = SceneEvent

  private let provider: LoadedProvider
  private let scene: UnsafePointer<tp_scene>
  private let context: UnsafeMutablePointer<tp_context>
  private let callbacks: Callbacks
  private var isDestroyed = false

  /// Creates a scene. `onEvent` runs on whichever thread the provider calls from.
  package init(
    provider: LoadedProvider, inputText: String?, allowsReplacement: Bool, sourceLanguage: String?,
    targetLanguage: String?, onEvent: @escaping @Sendable (Event) -> Void,
    onWarning: @escaping @Sendable (String) -> Void
  ) throws(ProviderError) {
    let create = try provider.sceneFactory()
    self.provider = provider
    callbacks = Callbacks(allowsReplacement: allowsReplacement, onEvent: onEvent, onWarning: onWarning)
    let text = inputText.map { Array($0.utf8) } ?? []
    let textCopy = UnsafeMutablePointer<CChar>.allocate(capacity: max(text.count, 1))
    text.withUnsafeBufferPointer { bytes in
      for (index, byte) in bytes.enumerated() { textCopy[index] = CChar(bitPattern: byte) }
    }
    context = .allocate(capacity: 1)
    context.initialize(
      to: tp_context(
        struct_size: UInt32(MemoryLayout<tp_context>.size),
        host_data: Unmanaged.passRetained(callbacks).toOpaque(),  // released with the context
        has_input_text: inputText != nil,
        input_text: tp_string(data: textCopy, length: text.count),
        allows_replacement: allowsReplacement,
        source_language: sourceLanguage.map { UnsafePointer(strdup($0)) } ?? nil,
        target_language: targetLanguage.map { UnsafePointer(strdup($0)) } ?? nil,
        finish: { context, translation in
          Callbacks.from(context)?.finish(translation?.pointee)
        },
        expand_sheet: { context in Callbacks.from(context)?.send(.expandSheet) },
        request_render: { context in Callbacks.from(context)?.send(.renderRequested) }))
    guard let scene = create(context) else {
      Self.freeContext(context)
      throw .sceneCreationFailed
    }
    let sceneSize = UnsafeRawPointer(scene).assumingMemoryBound(to: UInt32.self).pointee
    guard sceneSize >= MemoryLayout<tp_scene>.size else {
      Self.freeContext(context)
      throw .invalidTable("tp_scene", size: sceneSize, required: MemoryLayout<tp_scene>.size)
    }
    self.scene = scene
  }

  deinit { destroy() }

  /// The scene's current view tree, as the provider's raw JSON bytes.
  package func render() throws(ProviderError) -> [UInt8] {
    var json = tp_string(data: nil, length: 0)
    guard let render = scene.pointee.render else { throw .missingFunction("tp_scene.render") }
    let status = render(scene, &json)
    guard status == TP_STATUS_OK else { throw .failed(ProviderStatus(status), message: json.string) }
    return json.bytes
  }

  /// Presses the control `id`.
  package func performAction(_ id: String) throws(ProviderError) {
    guard let perform = scene.pointee.perform_action else { throw .missingFunction("tp_scene.perform_action") }
    let status = perform(scene, id)
    guard status == TP_STATUS_OK else { throw .failed(ProviderStatus(status), message: "action '\(id)'") }
  }

  /// Sets the text field `id` to `value`.
  package func setText(_ id: String, to value: String) throws(ProviderError) {
    guard let setText = scene.pointee.set_text else { throw .missingFunction("tp_scene.set_text") }
    let status = value.withTPString { setText(scene, id, $0) }
    guard status == TP_STATUS_OK else { throw .failed(ProviderStatus(status), message: "text field '\(id)'") }
  }

  /// Destroys the scene; later calls from the provider into its context are ignored.
  package func destroy() {
    guard !isDestroyed else { return }
    isDestroyed = true
    scene.pointee.destroy?(scene)
    callbacks.close()
    Self.freeContext(context)
  }

  /// Frees the context and what it points to, once the scene is destroyed.
  /// The ABI forbids calls into a context after its scene's `destroy`: a
  /// provider thread that makes one reads freed memory in its own runner,
  /// which the host reports as a crash; warm runners no longer grow by a
  /// context per scene.
  private static func freeContext(_ context: UnsafeMutablePointer<tp_context>) {
    let c = context.pointee
    UnsafeMutablePointer(mutating: c.input_text.data)?.deallocate()
    free(UnsafeMutablePointer(mutating: c.source_language))
    free(UnsafeMutablePointer(mutating: c.target_language))
    if let data = c.host_data { Unmanaged<Callbacks>.fromOpaque(data).release() }
    context.deinitialize(count: 1).deallocate()
  }

  /// The host's end of the context's callbacks.
  private final class Callbacks: @unchecked Sendable {
    private enum Phase { case open, finished, closed }
    private let phase = Mutex(Phase.open)
    private let allowsReplacement: Bool
    private let onEvent: @Sendable (Event) -> Void
    private let onWarning: @Sendable (String) -> Void

    init(allowsReplacement: Bool, onEvent: @escaping @Sendable (Event) -> Void, onWarning: @escaping @Sendable (String) -> Void) {
      self.allowsReplacement = allowsReplacement
      self.onEvent = onEvent
      self.onWarning = onWarning
    }

    static func from(_ context: UnsafePointer<tp_context>?) -> Callbacks? {
      guard let data = context?.pointee.host_data else { return nil }
      return Unmanaged<Callbacks>.fromOpaque(data).takeUnretainedValue()
    }

    /// `translation` is borrowed for the call; its bytes are copied before it returns.
    func finish(_ translation: tp_string?) {
      let previous = phase.withLock { phase in
        defer { if phase == .open { phase = .finished } }
        return phase
      }
      switch previous {
      case .open: break
      case .finished:
        onEvent(.violation("the provider called finish twice"))
        return
      case .closed:
        onWarning("the provider called finish after its scene was destroyed; ignored")
        return
      }
      guard let translation, allowsReplacement else {
        if translation != nil { onWarning("the provider offered a replacement although replacement is not allowed; ignored") }
        onEvent(.finished(translation: nil))
        return
      }
      // Checked before anything is replaced: NULL with a length is no text at all, not "".
      guard !translation.hasMissingData else {
        onEvent(.violation("the provider's replacement has NULL data but a length of \(translation.length) bytes"))
        return
      }
      guard let text = String(validating: translation.bytes, as: UTF8.self) else {
        onEvent(.violation("the provider's replacement is not valid UTF-8"))
        return
      }
      onEvent(.finished(translation: text))
    }

    func send(_ event: Event) {
      guard phase.withLock({ $0 == .open }) else { return }
      onEvent(event)
    }

    func close() { phase.withLock { $0 = .closed } }
  }
}
