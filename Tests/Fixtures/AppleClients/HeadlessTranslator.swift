import Translation

/// A background translator that owns one installed-languages session, as a
/// server-side or command-line component would.
actor HeadlessTranslator {
  private let session: TranslationSession

  init(source: String, target: String, strategy: TranslationSession.Strategy = .lowLatency) {
    session = TranslationSession(
      installedSource: Locale.Language(identifier: source), target: Locale.Language(identifier: target),
      preferredStrategy: strategy)
  }

  var strategy: TranslationSession.Strategy { session.preferredStrategy }

  func isReady() async -> Bool {
    await session.isReady
  }

  func translate(_ text: String) async throws -> String {
    try await session.translate(text).targetText
  }

  func stop() {
    session.cancel()
  }

  /// Whether a translation after `stop()` is refused as Apple's is.
  func refusesAfterStop() async -> Bool {
    do {
      _ = try await session.translate("Hello.")
      return false
    } catch TranslationError.alreadyCancelled {
      return true
    } catch {
      return false
    }
  }
}
