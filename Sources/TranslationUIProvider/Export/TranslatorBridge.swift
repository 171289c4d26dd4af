import CTranslationProvider

/// The C side of `TranslationProviding`: the functions of the `tp_translator` table.
enum TranslatorBridge {
  /// The last failure message, kept until the next call (calls are [host-thread]).
  nonisolated(unsafe) private static let message = OwnedBytes()

  static let translate:
    @convention(c) (
      OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<tp_string>?, Int,
      UnsafePointer<tp_translation_sink>?, UnsafeMutablePointer<tp_string>?
    ) -> tp_status = { handle, source, target, texts, count, sink, outMessage in
      guard let source, let target, let sink, let deliver = sink.pointee.translation, count == 0 || texts != nil
      else { return Int32(TP_STATUS_INVALID_ARGUMENT) }
      guard let translator = ProviderInstance.from(handle)?.loaded?.translator else { return Int32(TP_STATUS_FAILED) }
      let inputs = (0..<count).map { texts![$0].string }
      do {
        let outputs = try translator.translate(inputs, from: String(cString: source), to: String(cString: target))
        guard outputs.count == inputs.count else {
          throw TranslationProviderError.failed(
            "the provider returned \(outputs.count) translations for \(inputs.count) texts")
        }
        for (index, output) in outputs.enumerated() {
          output.withTPString { deliver(sink, index, $0) }
        }
        return Int32(TP_STATUS_OK)
      } catch {
        let failure = error as? TranslationProviderError ?? .failed("\(error)")
        outMessage?.pointee = message.replace(with: Array(failure.message.utf8))
        return failure.status
      }
    }

  /// `tp_stream_translator.translate`, for a provider that adopts `StreamingTranslationProviding`.
  static let translateStream:
    @convention(c) (
      OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<tp_text_source>?,
      UnsafePointer<tp_translation_sink>?, UnsafeMutablePointer<tp_string>?
    ) -> tp_status = { handle, source, target, texts, sink, outMessage in
      guard let source, let target, let texts, let sink, let deliver = sink.pointee.translation
      else { return Int32(TP_STATUS_INVALID_ARGUMENT) }
      guard let translator = ProviderInstance.from(handle)?.loaded?.translator as? any StreamingTranslationProviding
      else { return Int32(TP_STATUS_FAILED) }
      let stream = TranslationStream(source: texts, sink: sink, deliver: deliver)
      do {
        try translator.translate(stream, from: String(cString: source), to: String(cString: target))
        if let problem = stream.problem { throw TranslationProviderError.failed("the provider \(problem)") }
        if let missing = stream.undelivered.min() {
          throw TranslationProviderError.failed("the provider did not deliver the translation of index \(missing)")
        }
        return Int32(TP_STATUS_OK)
      } catch {
        let failure = error as? TranslationProviderError ?? .failed("\(error)")
        outMessage?.pointee = message.replace(with: Array(failure.message.utf8))
        return failure.status
      }
    }

  static let languages: @convention(c) (OpaquePointer?, UnsafePointer<tp_language_sink>?) -> tp_status = { handle, sink in
    guard let sink, let report = sink.pointee.pair else { return Int32(TP_STATUS_INVALID_ARGUMENT) }
    guard let translator = ProviderInstance.from(handle)?.loaded?.translator else { return Int32(TP_STATUS_FAILED) }
    let pairs: [LanguagePair]
    do {
      pairs = try translator.languagePairs
    } catch {
      let failure = error as? TranslationProviderError ?? .failed("\(error)")
      ProviderRuntime.log(.error, "cannot list languages: \(failure.message)")
      return failure.status
    }
    for pair in pairs {
      pair.note.withTPString { note in
        report(sink, pair.source, pair.target, pair.status.availability, note)
      }
    }
    return Int32(TP_STATUS_OK)
  }
}

extension LanguagePair.Status {
  var availability: tp_availability {
    switch self {
    case .installed: Int32(TP_AVAILABILITY_INSTALLED)
    case .supported: Int32(TP_AVAILABILITY_SUPPORTED)
    case .unsupported: Int32(TP_AVAILABILITY_UNSUPPORTED)
    }
  }
}

extension TranslationProviderError {
  var status: tp_status {
    switch self {
    case .nothingToTranslate: Int32(TP_STATUS_NOTHING_TO_TRANSLATE)
    case .unsupportedSourceLanguage: Int32(TP_STATUS_UNSUPPORTED_SOURCE_LANGUAGE)
    case .unsupportedTargetLanguage: Int32(TP_STATUS_UNSUPPORTED_TARGET_LANGUAGE)
    case .unsupportedLanguagePairing: Int32(TP_STATUS_UNSUPPORTED_LANGUAGE_PAIRING)
    case .unableToIdentifyLanguage: Int32(TP_STATUS_UNABLE_TO_IDENTIFY_LANGUAGE)
    case .failed: Int32(TP_STATUS_FAILED)
    }
  }
}
