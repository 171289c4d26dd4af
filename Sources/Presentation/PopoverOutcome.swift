import Service

/// How a presented popover ended.
package enum PopoverOutcome: Equatable, Sendable {
  /// The provider finished with a complete replacement for the text.
  case replaced(String)
  /// The provider finished without a replacement.
  case finished
  /// The person dismissed the popover (Esc, `q`), or closed the language picker.
  case dismissed

  /// How a popover for `text` ends when `provider`'s scene finished with
  /// `translation` (nil: without a replacement): where both popovers turn a
  /// finished scene into a Replace.
  /// - Throws: `SceneError.emptyReplacement` (as a `HostError`) for an empty
  ///   replacement of a text that was not empty, which is never written
  ///   silently: the person is told, and the text stays as it was.
  package static func finished(with translation: String?, for text: String, provider: String) throws -> PopoverOutcome {
    guard let translation else { return .finished }
    do throws(SceneError) {
      try SceneError.checkReplacement(translation, for: text, provider: provider)
    } catch {
      throw error.hostError
    }
    return .replaced(translation)
  }
}
