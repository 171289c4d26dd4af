import Service

/// A call to the content that the popover controller asks its front end to
/// run on another thread (`BackgroundCall`), one at a time.
package enum PopoverCall: Equatable, Sendable {
  /// The person's action.
  case action(PopoverAction)
  /// What the provider changed on its own since the last call.
  case takeChange

  /// Runs the call on `content`; the front end does so on another thread.
  package func perform(on content: any PopoverContent) throws -> SceneUpdate? {
    switch self {
    case .action(.press(let id)): try content.press(id)
    case .action(.edit(let id, let text)): try content.edit(id, text: text)
    case .action(.submit(let id)): try content.submit(id)
    case .takeChange: try content.takeChange()
    }
  }
}
