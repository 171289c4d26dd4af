/// Headless translation of an open batch, for engines that pipeline: texts
/// come while others are in flight, and each translation goes back as soon
/// as it is ready (the ABI's `tp.translate.stream/1`). The resident service
/// then keeps the engine busy with several clients' texts at once, where a
/// batch that must come back whole lets it drain before the next.
///
/// Adopt it beside `TranslationProviding` (which still serves the language
/// list, and hosts that give one batch at a time):
///
/// ```swift
/// func translate(_ stream: TranslationStream, from source: String, to target: String) throws {
///   while case .text(let index, let text) = stream.next() {
///     stream.deliver(engine.translate(text), for: index)
///   }
/// }
/// ```
public protocol StreamingTranslationProviding: TranslationProviding {
  /// Translates the texts `stream` gives from `source` to `target`,
  /// delivering each one's translation, in any order, as soon as it is
  /// ready. Return once `stream.next()` said `.later` or `.end` and every
  /// text taken is delivered; the host calls again when more come.
  /// - Throws: `TranslationProviderError`; texts taken and not delivered fail with it.
  func translate(_ stream: TranslationStream, from source: String, to target: String) throws
}
