import CTranslationProvider
import Synchronization

/// The `tp_text_source` and `tp_translation_sink` a runner hands its
/// provider's `tp.translate.stream/1` calls: one pair for the runner's whole
/// life, never freed, behind one lock, so that a provider breaking the ABI's
/// rules cannot reach freed memory or another call's texts:
/// - a worker thread that calls `next` or the sink after its call returned
///   (a provider that gave up, or that cancelled and answers anyway) finds no
///   stream open and is ignored (`next` says -1);
/// - indexes grow over the runner's life (`nextIndex`), so a late answer can
///   never be taken for a text of a later call;
/// - threads that call at once, against the rule, are serialized here.
final class TranslationStreamPort: @unchecked Sendable {
  /// The structs handed to the provider (allocated once, never freed).
  let source: UnsafeMutablePointer<tp_text_source>
  let sink: UnsafeMutablePointer<tp_translation_sink>
  private let lock = Mutex(())
  /// The stream of the call now running, if one is.
  private var current: RunnerTranslationStream?
  /// Where `next` copies the text it gives: the provider may read it until the next `next`.
  private var lent = UnsafeMutableBufferPointer<CChar>.allocate(capacity: 1)
  /// The index the next text taken gets: unique for the runner's life.
  private var nextIndex = 0
  private var reportedLateCall = false
  private let warn: (String) -> Void

  /// `warn` writes one line to the runner's log (from any thread).
  init(warn: @escaping (String) -> Void) {
    self.warn = warn
    source = .allocate(capacity: 1)
    sink = .allocate(capacity: 1)
    // The port lives as long as the structs it stands behind: a provider's
    // thread may call them after the runner's loop has ended.
    let me = Unmanaged.passRetained(self).toOpaque()
    source.initialize(
      to: tp_text_source(
        struct_size: UInt32(MemoryLayout<tp_text_source>.size), host_data: me,
        next: { source, index, text in
          guard let data = source?.pointee.host_data, let index, let text else { return -1 }
          return Unmanaged<TranslationStreamPort>.fromOpaque(data).takeUnretainedValue().next(index, text)
        }, descriptor: -1))
    sink.initialize(
      to: tp_translation_sink(
        struct_size: UInt32(MemoryLayout<tp_translation_sink>.size), host_data: me,
        translation: { sink, index, text in
          guard let data = sink?.pointee.host_data else { return }
          Unmanaged<TranslationStreamPort>.fromOpaque(data).takeUnretainedValue().deliver(index, text)
        }))
  }

  /// Opens `stream` for the provider's next call.
  func open(_ stream: RunnerTranslationStream) {
    lock.withLock { _ in
      current = stream
      source.pointee.descriptor = stream.descriptor
    }
  }

  /// Closes the call: waits for a `next` or an answer under way, and turns away any later one.
  func close() {
    lock.withLock { _ in
      current = nil
      source.pointee.descriptor = -1
    }
  }

  private func next(_ index: UnsafeMutablePointer<Int>, _ text: UnsafeMutablePointer<tp_string>) -> Int32 {
    lock.withLock { _ in
      guard let stream = current else {
        reportLateCall("next")
        return -1
      }
      guard let item = stream.take(index: nextIndex) else { return stream.isClosed ? -1 : 0 }
      nextIndex += 1
      if lent.count < item.count {
        lent.deallocate()
        lent = .allocate(capacity: item.count)
      }
      for (offset, byte) in item.enumerated() { lent[offset] = CChar(bitPattern: byte) }
      index.pointee = nextIndex - 1
      text.pointee = tp_string(data: UnsafePointer(lent.baseAddress), length: item.count)
      return 1
    }
  }

  private func deliver(_ index: Int, _ text: tp_string) {
    lock.withLock { _ in
      guard let stream = current else {
        reportLateCall("its translation sink (index \(index))")
        return
      }
      stream.deliver(index, text)
    }
  }

  /// Once per runner: the rest are ignored alike.
  private func reportLateCall(_ what: String) {
    guard !reportedLateCall else { return }
    reportedLateCall = true
    warn("the provider called \(what) after its tp.translate.stream/1 call returned; ignored (this is said once)")
  }
}
