import Service
import TranslationViewTree

/// What a popover shows and how it answers the person: a provider's scene,
/// or the host's own source-language picker.
package protocol PopoverContent: AnyObject {
  /// Whether typing while a button has focus goes to the first text field.
  var redirectsTyping: Bool { get }
  /// Whether the content asked for the whole screen (`expandSheet`).
  var wantsFullScreen: Bool { get }
  /// Presses the button `id`.
  func press(_ id: String) throws -> SceneUpdate
  /// Replaces the text of field `id`.
  func edit(_ id: String, text: String) throws -> SceneUpdate
  /// Enter in field `id`; nil moves focus to the next control.
  func submit(_ id: String) throws -> SceneUpdate?
  /// What changed on its own since the last call, without waiting; `tree`
  /// is what is shown now.
  func tick(showing tree: ViewTree) throws -> SceneUpdate?
  /// Stops the call in progress at once, from another thread; the content
  /// cannot be used afterwards.
  func interrupt()
}
