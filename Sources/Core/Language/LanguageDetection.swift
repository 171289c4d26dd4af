/// What language detection concluded about a text.
package struct LanguageDetection: Equatable, Sendable, Encodable {
  /// A candidate language and the share of the text in it.
  package struct Candidate: Equatable, Sendable, Encodable {
    /// BCP-47 tag.
    package var tag: String
    /// English name.
    package var name: String
    /// Percentage of the text (0–100).
    package var confidence: Int

    package init(tag: String, name: String, confidence: Int) {
      self.tag = tag
      self.name = name
      self.confidence = confidence
    }
  }

  /// The best candidate's tag, or nil when the language is unknown.
  package var tag: String?
  package var name: String?
  /// The best candidate's share of the text (0–100).
  package var confidence: Int
  /// Whether the detector stands by its answer (CLD2's `is_reliable`).
  package var reliable: Bool
  /// Up to three candidates, best first.
  package var candidates: [Candidate]

  package init(tag: String?, name: String?, confidence: Int, reliable: Bool, candidates: [Candidate]) {
    self.tag = tag
    self.name = name
    self.confidence = confidence
    self.reliable = reliable
    self.candidates = candidates
  }

  private enum CodingKeys: String, CodingKey { case tag, name, confidence, reliable, candidates }

  /// Writes an unknown language as `"tag": null` rather than leaving the key out.
  package func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(tag, forKey: .tag)
    try c.encode(name, forKey: .name)
    try c.encode(confidence, forKey: .confidence)
    try c.encode(reliable, forKey: .reliable)
    try c.encode(candidates, forKey: .candidates)
  }
}
