import CTranslationProvider
import TerminalPopover
import TranslationHostCore

/// `run` with a person at the terminal: the popover, after the source
/// language is known (given, detected reliably, or picked by the person).
struct InteractiveRun {
  var client: any ProviderSession
  var text: String
  var allowsReplacement: Bool
  var source: String?
  var target: String?

  func present(placement: PopoverPlacement, environment: [String: String]) throws -> PopoverOutcome {
    let presentation = PopoverPresentation(title: client.bundle.displayName, placement: placement, environment: environment)
    return try presentation.present(session: client, source: try sourceLanguage()) { language in
      let base = language.map { String($0.prefix { $0 != "-" }).lowercased() }
      return try client.openScene(
        inputText: text, allowsReplacement: allowsReplacement, sourceLanguage: language,
        targetLanguage: target ?? PreferredLanguages.current().first { $0 != base })
    }
  }

  /// The source language: `--from`, else a reliable detection, else the
  /// person's choice among the languages the provider translates from
  /// (detection's guesses first). A provider that names no languages gets
  /// none and decides itself.
  private func sourceLanguage() throws -> SourceLanguage {
    if let source { return .known(source) }
    let detection = LanguageDetector.detect(text)
    if let tag = try? LanguageDetector.sourceLanguage(of: text) { return .known(tag) }
    guard client.supports(TP_CAPABILITY_TRANSLATE) else { return .known(nil) }
    let installed = try client.languages().filter { $0.availability == .installed }.map(\.source)
    var options: [LanguageOption] = []
    for candidate in detection.candidates where installed.contains(candidate.tag) {
      options.append(LanguageOption(tag: candidate.tag, name: candidate.name))
    }
    for tag in Set(installed).sorted() where !options.contains(where: { $0.tag == tag }) {
      options.append(LanguageOption(tag: tag, name: LanguageDetector.name(of: tag)))
    }
    return options.isEmpty ? .known(nil) : .ask(options)
  }
}
