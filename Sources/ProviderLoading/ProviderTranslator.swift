import CTranslationProvider
import RunnerProtocol

/// The provider's headless translate capability (`tp.translate/1`).
package struct ProviderTranslator {
  private let provider: LoadedProvider
  private let table: LoadedProvider.TranslatorFunctions

  package init(provider: LoadedProvider) throws(ProviderError) {
    self.provider = provider
    table = try provider.translator()
  }

  /// Translates `texts` in one batch; one answer per text, in request order.
  package func translate(_ texts: [String], from source: String, to target: String) throws(ProviderError) -> [String] {
    guard let translate = table.translate else { throw .missingFunction("tp_translator.translate") }
    let collector = Collector(count: texts.count)
    var sink = tp_translation_sink(
      struct_size: UInt32(MemoryLayout<tp_translation_sink>.size),
      host_data: Unmanaged.passUnretained(collector).toOpaque(),
      translation: { sink, index, text in
        guard let data = sink?.pointee.host_data else { return }
        Unmanaged<Collector>.fromOpaque(data).takeUnretainedValue().receive(index, text)
      })
    var message = tp_string(data: nil, length: 0)
    // All texts in one buffer, each request pointing into it.
    let joined = texts.flatMap { Array($0.utf8) }
    let status = withExtendedLifetime(collector) {
      joined.withUnsafeBufferPointer { bytes in
        var offset = 0
        let strings = texts.map { text in
          let length = text.utf8.count
          defer { offset += length }
          return tp_string(
            data: bytes.baseAddress.map { UnsafeRawPointer($0 + offset).assumingMemoryBound(to: CChar.self) },
            length: length)
        }
        return strings.withUnsafeBufferPointer { strings in
          source.withCString { source in
            target.withCString { target in translate(source, target, strings.baseAddress, strings.count, &sink, &message) }
          }
        }
      }
    }
    guard status == TP_STATUS_OK else { throw .failed(ProviderStatus(status), message: message.string) }
    return try collector.result()
  }

  /// Serves `stream` with the provider's `tp.translate.stream/1` through
  /// `port`, calling it again while texts it did not take are waiting;
  /// false (nothing done) when the provider has no such capability.
  static func serve(_ stream: RunnerTranslationStream, through port: TranslationStreamPort, provider: LoadedProvider)
    -> Bool
  {
    guard let translate = try? provider.streamTranslator() else { return false }
    while true {
      let before = stream.takenCount
      var message = tp_string(data: nil, length: 0)  // `string` reads NULL data as ""
      port.open(stream)
      let status = stream.source.withCString { sourceTag in
        stream.target.withCString { targetTag in translate(sourceTag, targetTag, port.source, port.sink, &message) }
      }
      port.close()
      guard stream.finish(status: status, message: message.string, progressed: stream.takenCount > before) else { break }
    }
    return true
  }

  /// Every language pair the provider reports.
  package func languages() throws(ProviderError) -> [LanguagePairStatus] {
    guard let languages = table.languages else { throw .missingFunction("tp_translator.languages") }
    let collector = PairCollector()
    var sink = tp_language_sink(
      struct_size: UInt32(MemoryLayout<tp_language_sink>.size),
      host_data: Unmanaged.passUnretained(collector).toOpaque(),
      pair: { sink, source, target, availability, note in
        guard let data = sink?.pointee.host_data, let source, let target else { return }
        Unmanaged<PairCollector>.fromOpaque(data).takeUnretainedValue().pairs.append(
          LanguagePairStatus(
            source: String(cString: source), target: String(cString: target),
            availability: LanguagePairStatus.Availability(availability), note: note.string))
      })
    let status = withExtendedLifetime(collector) { languages(&sink) }
    guard status == TP_STATUS_OK else { throw .failed(ProviderStatus(status), message: "") }
    return collector.pairs
  }

  /// Gathers one answer per index and checks that every index got exactly one.
  private final class Collector {
    private var answers: [[UInt8]?]
    private var problem: String?

    init(count: Int) { answers = Array(repeating: nil, count: count) }

    /// `text` is borrowed for the call; its bytes are copied.
    func receive(_ index: Int, _ text: tp_string) {
      guard !text.hasMissingData else {
        problem = problem ?? "translation \(index) has NULL data but a length of \(text.length) bytes"
        return
      }
      let bytes = text.bytes
      guard answers.indices.contains(index) else {
        problem = problem ?? "answered index \(index) of a batch of \(answers.count)"
        return
      }
      guard answers[index] == nil else {
        problem = problem ?? "answered index \(index) twice"
        return
      }
      answers[index] = bytes
    }

    func result() throws(ProviderError) -> [String] {
      if let problem { throw .invalidTranslation(problem) }
      var texts: [String] = []
      for (index, answer) in answers.enumerated() {
        guard let answer else { throw .invalidTranslation("did not answer index \(index)") }
        guard let text = String(validating: answer, as: UTF8.self) else {
          throw .invalidTranslation("the answer to index \(index) is not valid UTF-8")
        }
        texts.append(text)
      }
      return texts
    }
  }

  private final class PairCollector {
    var pairs: [LanguagePairStatus] = []
  }
}
