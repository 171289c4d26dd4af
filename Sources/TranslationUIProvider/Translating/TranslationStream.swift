import CTranslationProvider

/// The texts of an open batch (`StreamingTranslationProviding`), valid only
/// during the call that received it. `next` and `deliver` may be called from
/// any thread, one call at a time.
public final class TranslationStream {
  /// What `next` gives.
  public enum Item: Equatable, Sendable {
    /// A text, and the index to deliver its translation for.
    case text(index: Int, String)
    /// No text now; more may come (`descriptor` becomes readable).
    case later
    /// No more texts in this call.
    case end
  }

  private let source: UnsafePointer<tp_text_source>
  private let sink: UnsafePointer<tp_translation_sink>
  private let deliverFunction: @convention(c) (UnsafePointer<tp_translation_sink>?, Int, tp_string) -> Void
  /// Indexes taken and not delivered yet.
  private(set) var undelivered = Set<Int>()
  private(set) var problem: String?

  init(
    source: UnsafePointer<tp_text_source>, sink: UnsafePointer<tp_translation_sink>,
    deliver: @escaping @convention(c) (UnsafePointer<tp_translation_sink>?, Int, tp_string) -> Void
  ) {
    self.source = source
    self.sink = sink
    deliverFunction = deliver
  }

  /// A descriptor that is readable when `next` may have a text (poll it,
  /// never read it), or nil when the host gives none.
  public var descriptor: Int32? {
    let value = source.pointee.descriptor
    return value >= 0 ? value : nil
  }

  /// Takes the next text.
  public func next() -> Item {
    guard let next = source.pointee.next else { return .end }
    var index = 0
    var text = tp_string(data: nil, length: 0)
    switch next(source, &index, &text) {
    case 1:
      undelivered.insert(index)
      return .text(index: index, text.string)
    case 0: return .later
    default: return .end
    }
  }

  /// Hands the host the translation of the text taken as `index`; once per index.
  public func deliver(_ translation: String, for index: Int) {
    guard undelivered.remove(index) != nil else {
      problem = problem ?? "delivered index \(index), which was not taken or was delivered before"
      return
    }
    translation.withTPString { deliverFunction(sink, index, $0) }
  }
}
