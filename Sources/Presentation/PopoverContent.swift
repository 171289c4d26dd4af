import Service
import System
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
  /// Whether the content changes on its own (a provider's scene redraws
  /// and finishes unasked): `PopoverController` then keeps its watch armed.
  var changesOnItsOwn: Bool { get }
  /// How long the content may show progress without a change before it is
  /// taken as hung (`stillBusy`); nil: no limit.
  var busyLimit: Duration? { get }
  /// What changed on its own since the last call, without waiting.
  func takeChange() throws -> SceneUpdate?
  /// Arms the watch for the content's own changes: the descriptor becomes
  /// readable when `takeChange` may have something. Called only between calls.
  func watchChanges() throws -> FileDescriptor
  /// The error for a content that showed progress in `tree` longer than `busyLimit`.
  func stillBusy(showing tree: ViewTree) -> any Error
  /// Stops the call in progress at once, from another thread; the content
  /// cannot be used afterwards.
  func interrupt()
}
