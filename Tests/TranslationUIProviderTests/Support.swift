import CTranslationProvider
import Synchronization

@testable import TranslationUIProvider

/// A context for rendering tests that never reach the C ABI.
final class TestContext: TranslationUIProviderContext {
  let inputText: AttributedString?
  let allowsReplacement: Bool
  let targetLanguage: String?
  private(set) var finished: [AttributedString?] = []
  private(set) var expansions = 0

  init(_ text: String?, allowsReplacement: Bool = true, targetLanguage: String? = nil) {
    inputText = text.map { AttributedString($0) }
    self.allowsReplacement = allowsReplacement
    self.targetLanguage = targetLanguage
  }

  func finish(translation: AttributedString?) { finished.append(translation) }
  func expandSheet() { expansions += 1 }
}

/// A host-side `tp_context` whose callbacks record what the provider did.
final class RecordingContext {
  enum Call: Equatable { case finish(String?), expandSheet, requestRender }

  private let calls = Mutex<[Call]>([])
  let pointer: UnsafeMutablePointer<tp_context>
  private let text: UnsafeMutablePointer<CChar>

  init(_ input: String?, allowsReplacement: Bool) {
    let bytes = Array((input ?? "").utf8)
    text = .allocate(capacity: max(bytes.count, 1))
    for (index, byte) in bytes.enumerated() { text[index] = CChar(bitPattern: byte) }
    pointer = .allocate(capacity: 1)
    pointer.initialize(
      to: tp_context(
        struct_size: UInt32(MemoryLayout<tp_context>.size), host_data: nil, has_input_text: input != nil,
        input_text: tp_string(data: text, length: bytes.count), allows_replacement: allowsReplacement,
        source_language: nil, target_language: nil,
        finish: { context, translation in
          RecordingContext.from(context).record(.finish(translation.map { $0.pointee.string }))
        },
        expand_sheet: { context in RecordingContext.from(context).record(.expandSheet) },
        request_render: { context in RecordingContext.from(context).record(.requestRender) }))
    pointer.pointee.host_data = Unmanaged.passUnretained(self).toOpaque()
  }

  deinit {
    pointer.deallocate()
    text.deallocate()
  }

  var recorded: [Call] { calls.withLock { $0 } }

  private func record(_ call: Call) { calls.withLock { $0.append(call) } }

  private static func from(_ context: UnsafePointer<tp_context>?) -> RecordingContext {
    Unmanaged<RecordingContext>.fromOpaque(context!.pointee.host_data!).takeUnretainedValue()
  }
}
