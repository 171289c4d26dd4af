import Service
import System
import TranslationViewTree

/// A provider's selected-text scene in the popover.
package final class ProviderSceneContent: PopoverContent {
  private let session: any SceneSession

  package init(session: any SceneSession) { self.session = session }

  package var redirectsTyping: Bool { false }
  package var wantsFullScreen: Bool { session.wantsExpandedSheet }

  package func press(_ id: String) throws -> SceneUpdate { try session.performAction(id) }

  package func edit(_ id: String, text: String) throws -> SceneUpdate { try session.setText(id, to: text) }

  package func submit(_ id: String) throws -> SceneUpdate? { nil }

  package func interrupt() { session.interruption() }

  package var changesOnItsOwn: Bool { true }

  /// A scene that shows progress for longer than the session's deadline without a change has hung.
  package var busyLimit: Duration? { session.timeout }

  /// The provider's redraws and finish.
  package func takeChange() throws -> SceneUpdate? { try session.takeChange() }

  package func watchChanges() throws -> FileDescriptor { try session.watchForChange() }

  package func stillBusy(showing tree: ViewTree) -> any Error {
    SceneError.stillBusy(provider: session.bundle.identifier, tree: tree, pressing: nil, after: session.timeout).hostError
  }
}
