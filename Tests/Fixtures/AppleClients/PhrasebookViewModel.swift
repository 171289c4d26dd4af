import Translation

/// A phrasebook screen's model: checks availability first, then translates
/// every phrase in one call and matches the responses by identifier.
@MainActor
final class PhrasebookViewModel {
  struct Entry: Identifiable, Sendable {
    let id = UUID()
    let phrase: String
    var translation: String?
  }

  private(set) var entries: [Entry]
  private(set) var isTranslating = false
  private(set) var errorMessage: String?

  init(phrases: [String]) {
    entries = phrases.map { Entry(phrase: $0) }
  }

  func availability(from source: Locale.Language, to target: Locale.Language) async -> LanguageAvailability.Status {
    let availability = LanguageAvailability(preferredStrategy: .lowLatency)
    return await availability.status(from: source, to: target)
  }

  func translateAll(with session: TranslationSession) async {
    isTranslating = true
    defer { isTranslating = false }
    let requests = entries.map { TranslationSession.Request(sourceText: $0.phrase, clientIdentifier: $0.id.uuidString) }
    do {
      let responses = try await session.translations(from: requests)
      for response in responses {
        if let index = entries.firstIndex(where: { $0.id.uuidString == response.clientIdentifier }) {
          entries[index].translation = response.targetText
        }
      }
    } catch let error as TranslationError {
      errorMessage = error.failureReason ?? error.localizedDescription
    } catch {
      errorMessage = error.localizedDescription
    }
  }
}
