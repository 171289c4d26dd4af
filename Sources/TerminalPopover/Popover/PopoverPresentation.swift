import Core
import Presentation
import Service
import System
import TranslationViewTree

/// The translation popover on the person's terminal: the counterpart of
/// SwiftUI's `translationPresentation(isPresented:text:attachmentAnchor:arrowEdge:replacementAction:)`.
///
/// It asks for the source language first when it is not known, then shows
/// the provider's selected-text scene until the provider finishes or the
/// person dismisses it. The terminal is given back before `present`
/// returns or throws, whatever happened.
package struct PopoverPresentation {
  package var placement: PopoverPlacement
  package var environment: [String: String]

  package init(placement: PopoverPlacement, environment: [String: String]) {
    self.placement = placement
    self.environment = environment
  }

  /// Whether a popover can be drawn here: a controlling terminal that one
  /// of the standard streams is attached to (so tests and scripts without
  /// one keep the scripted behaviour), and a `TERM` other than `dumb`.
  /// - Throws: `PopoverError.unsupportedTerminal` when there is a terminal
  ///   but `TERM` cannot draw on it.
  package static func isAvailable(environment: [String: String]) throws(PopoverError) -> Bool {
    let standard: [FileDescriptor] = [.standardInput, .standardOutput, .standardError]
    guard standard.contains(where: Syscalls.isTerminal) else { return false }
    guard let terminal = try? Syscalls.open("/dev/tty", .readWrite) else { return false }
    Syscalls.close(terminal)
    _ = try TerminalScreen.type(environment)
    return true
  }

  /// Shows `session`'s scene for `text`, titled with the provider's name.
  ///
  /// The text is captured here; nothing changes it afterwards. The source
  /// language is `sourceLanguage`, else a reliable detection, else the
  /// person's choice among the languages the provider translates from
  /// (detection's guesses first); a provider that names no languages gets
  /// none and decides itself. The target is `targetLanguage`, else the
  /// person's preferred language that is not the source.
  /// - Returns: how it ended; a replacement only when replacement is
  ///   allowed and the provider finished with a complete one.
  package func present(
    session: any SceneSession, text: String, allowsReplacement: Bool, sourceLanguage: String?, targetLanguage: String?
  ) throws -> PopoverOutcome {
    let source = try SourceLanguage.of(text, given: sourceLanguage, session: session)
    let screen = try TerminalScreen(environment: environment)
    defer { screen.restore() }
    let title = session.bundle.displayName
    var language: String?
    switch source {
    case .known(let known):
      language = known
    case .ask(let options):
      let picker = LanguagePicker(options: options)
      let loop = try PopoverLoop(screen: screen, content: picker, first: picker.tree, title: title, placement: placement)
      guard case .some(let chosen) = try loop.run() else { return .dismissed }
      language = chosen
    }
    let first = try session.openScene(
      inputText: text, allowsReplacement: allowsReplacement, sourceLanguage: language,
      targetLanguage: targetLanguage ?? language.flatMap { RequestLanguages.target(for: $0, environment: environment) })
    let provider = session.bundle.identifier
    guard case .view(let tree) = first else {
      guard case .finished(let translation) = first else { return .finished }
      return try .finished(with: translation, for: text, provider: provider)
    }
    let loop = try PopoverLoop(
      screen: screen, content: ProviderSceneContent(session: session), first: tree, title: title, placement: placement)
    guard case .some(let translation) = try loop.run() else { return .dismissed }
    return try .finished(with: translation, for: text, provider: provider)
  }
}
