import Foundation
import Translation

/// A model as Apple's own sample code writes it (WWDC24, "Meet the
/// Translation API"): an `@Observable` class in a file that imports only
/// Foundation and Translation, a response made by hand for a preview.
@Observable
@MainActor
final class ObservableTranslation {
  var sourceText: String
  var translatedText = ""
  var isTranslationSupported: Bool?

  init(sourceText: String) {
    self.sourceText = sourceText
  }

  func checkSupport(to target: Locale.Language) async {
    do {
      let status = try await LanguageAvailability().status(for: sourceText, to: target)
      isTranslationSupported = status != .unsupported
    } catch {
      isTranslationSupported = nil
    }
  }

  func translate(using session: TranslationSession) async {
    do {
      translatedText = try await session.translate(sourceText).targetText
    } catch {
      translatedText = "failed: \(error.localizedDescription)"
    }
  }

  /// What a preview shows before anything is translated.
  static let preview = TranslationSession.Response(
    sourceLanguage: Locale.Language(identifier: "en"), targetLanguage: Locale.Language(identifier: "es"),
    sourceText: "Hello", targetText: "Hola")
}
