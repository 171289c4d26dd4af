import Glibc
import TranslationHostCore
import TranslationViewTree

/// The translation popover on the person's terminal: the counterpart of
/// SwiftUI's `translationPresentation(isPresented:text:attachmentAnchor:arrowEdge:replacementAction:)`.
///
/// It asks for the source language first when it is not known, then shows
/// the provider's selected-text scene until the provider finishes or the
/// person dismisses it. The terminal is given back before `present`
/// returns or throws, whatever happened.
package struct PopoverPresentation {
  /// The popover's title: the provider's display name.
  package var title: String
  package var placement: PopoverPlacement
  package var environment: [String: String]

  package init(title: String, placement: PopoverPlacement, environment: [String: String]) {
    self.title = title
    self.placement = placement
    self.environment = environment
  }

  /// Whether a popover can be drawn here: a controlling terminal that one
  /// of the standard streams is attached to (so tests and scripts without
  /// one keep the scripted behaviour), and a `TERM` other than `dumb`.
  /// - Throws: `PopoverError.unsupportedTerminal` when there is a terminal
  ///   but `TERM` cannot draw on it.
  package static func isAvailable(environment: [String: String]) throws(PopoverError) -> Bool {
    guard (0...2).contains(where: { isatty($0) == 1 }) else { return false }
    let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
    guard descriptor >= 0 else { return false }
    close(descriptor)
    let term = environment["TERM"] ?? ""
    guard !term.isEmpty, term != "dumb" else { throw .unsupportedTerminal(term) }
    return true
  }

  /// Shows the scene for `text`.
  /// - Parameters:
  ///   - open: opens the provider's scene once the source language is
  ///     known, with that language (nil: none needed).
  /// - Returns: how it ended; a replacement only when the provider finished
  ///   with a complete one.
  package func present(
    session: any ProviderSession, source: SourceLanguage, open: (String?) throws -> SceneUpdate
  ) throws -> PopoverOutcome {
    let screen = try TerminalScreen(environment: environment)
    defer { screen.restore() }
    var language: String?
    switch source {
    case .known(let known):
      language = known
    case .ask(let options):
      let picker = LanguagePicker(options: options)
      let loop = PopoverLoop(screen: screen, content: picker, first: picker.tree, title: title, placement: placement)
      guard case .some(let chosen) = try loop.run() else { return .dismissed }
      language = chosen
    }
    let first = try open(language)
    guard case .view(let tree) = first else {
      if case .finished(let translation?) = first { return .replaced(translation) }
      return .finished
    }
    let loop = PopoverLoop(
      screen: screen, content: ProviderSceneContent(session: session), first: tree, title: title, placement: placement)
    switch try loop.run() {
    case .some(let translation?): return .replaced(translation)
    case .some(nil): return .finished
    case nil: return .dismissed
    }
  }
}
