extension TranslationSession {
  /// Which models to prefer, as Apple's (iOS 26.4): `lowLatency` for
  /// traditional models, `highFidelity` for larger ones where available.
  ///
  /// Here the models are the user's default provider's: a provider has one
  /// way of translating, so both strategies are served by it, as Apple's
  /// `highFidelity` falls back to `lowLatency` where its models are missing.
  /// The strategy is kept (`preferredStrategy`) and never changes a result.
  public struct Strategy: Hashable, Sendable, CustomStringConvertible {
    private let name: String

    /// Fast translations with traditional models; the default.
    public static let lowLatency = Strategy(name: "lowLatency")
    /// More fluent translations with larger models where the provider has
    /// them; otherwise the same as `lowLatency`.
    public static let highFidelity = Strategy(name: "highFidelity")

    public var description: String { name }
  }
}
