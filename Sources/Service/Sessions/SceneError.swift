import System
import TranslationViewTree

/// A scripted press that cannot be carried out, or a scene that never drew again.
package enum SceneError: HostErrorConvertible, Equatable {
  /// No button has this label; `available` lists the buttons there are, quoted.
  case noSuchButton(String, available: [String])
  /// The button exists but is disabled.
  case buttonDisabled(String, available: [String])
  /// The provider has no selected-text scene to script.
  case noScene(provider: String)
  /// The scene showed its progress indicator (titled `progress`; nil when it
  /// showed none but said it was settling) for longer than the deadline
  /// without drawing again; `pressing` is the button a
  /// script was waiting to press. Not "did not answer": it answered, with a
  /// progress indicator, and never drew again.
  case stillBusy(provider: String, progress: String?, pressing: String?, after: Duration)
  /// The scene finished with an empty replacement of a text that was not
  /// empty (a Replace button pressed before the translation arrived, say):
  /// nothing is written. `pressed` is the label a script pressed last; nil
  /// in a popover, where a person pressed.
  case emptyReplacement(provider: String, pressed: String?)

  /// `stillBusy` for a scene that shows `tree`: the title of its first
  /// progress indicator ("" for one without a title; nil for none: the scene
  /// was settling).
  package static func stillBusy(provider: String, tree: ViewTree, pressing: String?, after: Duration) -> SceneError {
    var progress: String?
    tree.root.forEach { node in
      if progress == nil || progress == "", case .progress(let title, _) = node { progress = title ?? "" }
    }
    return .stillBusy(provider: provider, progress: progress, pressing: pressing, after: after)
  }

  /// The one rule every path that writes a replacement goes through
  /// (scripted presses and both popovers): an empty replacement of a text
  /// that was not empty is never written silently. (An empty text's
  /// replacement may be empty.)
  /// - Throws: `emptyReplacement` naming `provider` and, for a script, the
  ///   label it pressed last.
  package static func checkReplacement(
    _ replacement: String, for text: String, provider: String, pressed: String? = nil
  ) throws(SceneError) {
    if replacement.isEmpty && !text.isEmpty { throw .emptyReplacement(provider: provider, pressed: pressed) }
  }

  package var description: String {
    switch self {
    case .noSuchButton(let label, let available):
      "no button '\(label)' in the scene; its buttons are \(Self.list(available))"
    case .buttonDisabled(let label, let available):
      "button '\(label)' is disabled; its buttons are \(Self.list(available))"
    case .noScene(let provider):
      "provider '\(provider)' has no selected-text scene to press buttons in"
    case .emptyReplacement(let provider, let pressed?):
      "provider '\(provider)' finished with an empty replacement after '\(pressed)' was pressed, for a text that was not empty; nothing was written. A scene should keep its Replace button disabled until the translation is there"
    case .emptyReplacement(let provider, nil):
      "provider '\(provider)' returned an empty replacement for a text that was not empty; nothing replaced (the text is unchanged). "
        + "A scene should keep its Replace button disabled until the translation is there"
    case .stillBusy(let provider, nil, let pressing, let span):
      "provider '\(provider)' was still settling after \(span.readable) (work its scene started when it appeared, a `.task`, had not finished): the host was waiting for it"
        + (pressing.map { " before pressing '\($0)'" } ?? "")
        + ", and stopped it. Let the task finish, or show the result without waiting for it"
    case .stillBusy(let provider, let progress?, let pressing, let span):
      "provider '\(provider)' still showed its progress indicator\(progress.isEmpty ? "" : " ('\(progress)')") after \(span.readable): the host was waiting for it to draw again"
        + (pressing.map { " before pressing '\($0)'" } ?? "")
        + ", and stopped it. Work a provider queues on the main queue or the main actor runs between the host's requests; the scene must then ask to be drawn again (request_render; the SDK does when state changes)"
    }
  }

  package var hostError: HostError {
    if case .noScene = self { return HostError(.usage, description) }
    if case .stillBusy = self { return HostError(.deadlineExceeded, description, remedy: .longerDeadline) }
    if case .emptyReplacement = self { return HostError(.providerFailed, description) }
    return HostError(.noSuchControl, description)
  }

  private static func list(_ labels: [String]) -> String {
    labels.isEmpty ? "none" : labels.joined(separator: ", ")
  }
}
