import Translation

/// Translates an article paragraph by paragraph, the way a SwiftUI view model
/// drives `.translationTask(configuration)`: the first request sets a
/// configuration, later ones invalidate it to run the task again.
@MainActor
final class ArticleTranslator {
  private(set) var configuration: TranslationSession.Configuration?
  private(set) var translatedParagraphs: [String] = []
  private(set) var runs = 0
  private(set) var lastError: String?
  private let paragraphs: [String]
  private var task: TranslationTask?

  init(paragraphs: [String]) {
    self.paragraphs = paragraphs
  }

  func translate(from source: Locale.Language, to target: Locale.Language) async {
    if configuration == nil {
      configuration = TranslationSession.Configuration(source: source, target: target, preferredStrategy: .highFidelity)
    } else {
      configuration?.invalidate()
    }
    if let task {
      task.configuration = configuration
    } else {
      task = translationTask(configuration) { session in
        await self.translateAll(using: session)
      }
    }
    await task?.value
  }

  private func translateAll(using session: TranslationSession) async {
    runs += 1
    let requests = paragraphs.enumerated().map { index, paragraph in
      TranslationSession.Request(sourceText: paragraph, clientIdentifier: "\(index)")
    }
    var results = Array(repeating: "", count: paragraphs.count)
    do {
      for try await response in session.translate(batch: requests) {
        guard let identifier = response.clientIdentifier, let index = Int(identifier) else { continue }
        results[index] = response.targetText
      }
      translatedParagraphs = results
    } catch {
      lastError = error.localizedDescription
    }
  }
}
