extension TranslationSession {
  /// The languages (and strategy) of a session that `translationTask`
  /// vends, as Apple's: a value the app keeps and changes. Changing it, or
  /// calling `invalidate()`, runs the task's action again with a new session.
  public struct Configuration: Hashable, Sendable {
    /// The language of the text, or nil to detect it in each batch.
    public var source: Locale.Language?
    /// The language to translate into, or nil for the user's preferred
    /// language that is not the source.
    public var target: Locale.Language?
    /// The models to prefer (`lowLatency` unless given).
    public var preferredStrategy: Strategy
    /// Bumped by `invalidate()`; part of equality, so an invalidated
    /// configuration is a change.
    public private(set) var version: Int

    /// A configuration for `source` into `target`.
    public init(source: Locale.Language? = nil, target: Locale.Language? = nil) {
      self.init(source: source, target: target, preferredStrategy: .lowLatency)
    }

    /// A configuration for `source` into `target` with `preferredStrategy` (iOS 26.4).
    public init(source: Locale.Language? = nil, target: Locale.Language? = nil, preferredStrategy: Strategy) {
      self.source = source
      self.target = target
      self.preferredStrategy = preferredStrategy
      version = 0
    }

    /// Marks the configuration as changed without changing its languages, so
    /// that the task given it runs its action again, with a new session.
    public mutating func invalidate() { version += 1 }
  }
}
