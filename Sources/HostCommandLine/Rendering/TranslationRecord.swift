import FoundationEssentials

/// One result of `translate --json`, with the field names of Apple's
/// `TranslationSession.Response`.
struct TranslationRecord: Encodable {
  /// An input line of `translate --lines --json`, as Apple's `TranslationSession.Request`.
  struct Request: Decodable {
    var sourceText: String
    var clientIdentifier: String?
  }

  var sourceLanguage: String
  var targetLanguage: String
  var sourceText: String
  var targetText: String
  var clientIdentifier: String?

  init(_ source: String, _ target: String, _ sourceText: String, _ targetText: String, _ identifier: String?) {
    sourceLanguage = source
    targetLanguage = target
    self.sourceText = sourceText
    self.targetText = targetText
    clientIdentifier = identifier
  }

  /// The record as one line of JSON (JSON Lines).
  func jsonLine() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
  }
}
