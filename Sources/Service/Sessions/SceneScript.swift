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
  /// case. Before each press the scene settles: while it shows a
  /// `ProgressView` or says it is settling (work its views started when they
  /// appeared, SwiftUI's `.task`, has not finished), the press waits for the
  /// provider to draw again. A button still missing or disabled then is
  /// judged only after the scene stayed unchanged for `quietPeriod` (work
  /// queued on the main queue by `.onAppear` draws within it); all within
  /// one deadline per press (the session's timeout).
  /// - Throws: `SceneError` for a button that stays missing or disabled, a
  ///   scene that stays busy, and a replacement that is empty although the
  ///   text was not (never written silently).
  package func run(on client: any SceneSession, from first: SceneUpdate, inputText: String = "") throws -> Outcome {
    var update = first
    presses: for label in presses {
      guard case .view(var tree) = update else { break }
      let deadline = ContinuousClock.Instant.after(client.timeout)
      while true {
        let settled = !tree.isBusy && !tree.isSettling
        if settled, let id = Self.enabledButton(labelled: label, in: tree) {
          update = try client.performAction(id)
          break
        }
        let waitUntil = settled ? min(deadline, .after(Self.quietPeriod)) : deadline
        do throws(HostError) {
          update = try client.waitForChange(until: waitUntil)
        } catch {
          guard error.kind == .deadlineExceeded else { throw error }
          if settled { _ = try Self.button(labelled: label, in: tree) }
          throw SceneError.stillBusy(provider: client.bundle.identifier, tree: tree, pressing: label, after: client.timeout)
        }
        guard case .view(let next) = update else { break presses }
        tree = next
      }
    }
    switch update {
    case .finished(let translation?):
      try SceneError.checkReplacement(
        translation, for: inputText, provider: client.bundle.identifier, pressed: presses.last ?? "")
      return .replaced(translation)
    case .finished(nil): return .dismissed
    case .view(let tree): return .unfinished(tree)
    }
  }

  /// How long a settled scene must stay unchanged before a press judges a
  /// button that is missing or disabled.
  package static let quietPeriod = Duration.milliseconds(250)

  /// The id of the enabled button labelled `label`, or nil.
  static func enabledButton(labelled label: String, in tree: ViewTree) -> String? {
    let wanted = label.lowercased()
    return tree.buttons.first { $0.isEnabled && $0.label.lowercased() == wanted }?.id
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
