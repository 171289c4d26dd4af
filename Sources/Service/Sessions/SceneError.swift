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
  /// The scene showed its progress indicator (titled `progress`) for longer
  /// than the deadline without drawing again; `pressing` is the button a
  /// script was waiting to press. Not "did not answer": it answered, with a
  /// progress indicator, and never drew again.
  case stillBusy(provider: String, progress: String?, pressing: String?, after: Duration)

  /// `stillBusy` for a scene that shows `tree`: the title of its first progress indicator.
  package static func stillBusy(provider: String, tree: ViewTree, pressing: String?, after: Duration) -> SceneError {
    var progress: String?
    tree.root.forEach { node in
      if progress == nil, case .progress(let title?, _) = node, !title.isEmpty { progress = title }
    }
    return .stillBusy(provider: provider, progress: progress, pressing: pressing, after: after)
  }

  package var description: String {
    switch self {
    case .noSuchButton(let label, let available):
      "no button '\(label)' in the scene; its buttons are \(Self.list(available))"
    case .buttonDisabled(let label, let available):
      "button '\(label)' is disabled; its buttons are \(Self.list(available))"
    case .noScene(let provider):
      "provider '\(provider)' has no selected-text scene to press buttons in"
    case .stillBusy(let provider, let progress, let pressing, let span):
      "provider '\(provider)' still showed its progress indicator\(progress.map { " ('\($0)')" } ?? "") after \(span.readable): the host was waiting for it to draw again"
        + (pressing.map { " before pressing '\($0)'" } ?? "")
        + ", and stopped it. Work a provider queues on the main queue or the main actor runs between the host's requests; the scene must then ask to be drawn again (request_render; the SDK does when state changes)"
    }
  }

  package var hostError: HostError {
    if case .noScene = self { return HostError(.usage, description) }
    if case .stillBusy = self { return HostError(.deadlineExceeded, description, remedy: .longerDeadline) }
    return HostError(.noSuchControl, description)
  }

  private static func list(_ labels: [String]) -> String {
    labels.isEmpty ? "none" : labels.joined(separator: ", ")
  }
}
