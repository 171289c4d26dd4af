extension TranslationSession {
  /// One text of a batch, as Apple's.
  public struct Request: Sendable {
    /// The text to translate.
    public var sourceText: String
    /// Echoed in the response, to match responses to requests.
    public var clientIdentifier: String?

    public init(sourceText: String, clientIdentifier: String? = nil) {
      self.sourceText = sourceText
      self.clientIdentifier = clientIdentifier
    }
  }
}
