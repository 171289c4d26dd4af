import System
import TranslationViewTree

/// Drives a scene without a person: presses buttons by their visible label,
/// in order, as `translation-host run --press` does.
package struct SceneScript: Sendable {
  /// How a scripted scene ended.
  package enum Outcome: Equatable, Sendable {
    /// The scene finished with a complete replacement.
    case replaced(String)
    /// The scene finished without a replacement.
    case dismissed
    /// The presses ran out before the scene finished; `view` is what it showed last.
    case unfinished(ViewTree)
  }

  /// The labels to press, in order.
  package var presses: [String]

  package init(presses: [String]) { self.presses = presses }

  /// Presses each label on the scene that `first` opened.
  ///
  /// A label matches a button whose visible text is equal to it, ignoring
  /// case. While the scene shows a `ProgressView`, a press waits for the
  /// provider to redraw before looking for its button, within one deadline
  /// per press (the session's timeout).
  package func run(on client: any SceneSession, from first: SceneUpdate) throws -> Outcome {
    var update = first
    for label in presses {
      guard case .view(var tree) = update else { break }
      let deadline = ContinuousClock.Instant.after(client.timeout)
      while tree.isBusy {
        do throws(HostError) {
          update = try client.waitForChange(until: deadline)
        } catch {
          guard error.kind == .deadlineExceeded else { throw error }
          throw SceneError.stillBusy(provider: client.bundle.identifier, tree: tree, pressing: label, after: client.timeout)
        }
        guard case .view(let next) = update else { break }
        tree = next
      }
      guard case .view = update else { break }
      let id = try Self.button(labelled: label, in: tree)
      update = try client.performAction(id)
    }
    switch update {
    case .finished(let translation?): return .replaced(translation)
    case .finished(nil): return .dismissed
    case .view(let tree): return .unfinished(tree)
    }
  }

  /// The id of the enabled button labelled `label`.
  package static func button(labelled label: String, in tree: ViewTree) throws(SceneError) -> String {
    let buttons = tree.buttons
    let wanted = label.lowercased()
    let matches = buttons.filter { $0.label.lowercased() == wanted }
    guard let enabled = matches.first(where: \.isEnabled) else {
      let available = buttons.map { "'\($0.label)'" + ($0.isEnabled ? "" : " (disabled)") }
      throw matches.isEmpty ? .noSuchButton(label, available: available) : .buttonDisabled(label, available: available)
    }
    return enabled.id
  }
}
