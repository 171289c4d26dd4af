import Service
import System
import TranslationViewTree

/// A provider's selected-text scene in the popover.
package final class ProviderSceneContent: PopoverContent {
  private let session: any SceneSession
  /// When the scene started showing progress.
  private var busySince: ContinuousClock.Instant?

  package init(session: any SceneSession) { self.session = session }

  package var redirectsTyping: Bool { false }
  package var wantsFullScreen: Bool { session.wantsExpandedSheet }

  package func press(_ id: String) throws -> SceneUpdate { try session.performAction(id) }

  package func edit(_ id: String, text: String) throws -> SceneUpdate { try session.setText(id, to: text) }

  package func submit(_ id: String) throws -> SceneUpdate? { nil }

  package func interrupt() { session.interruption() }

  /// The provider's redraws and finish. A scene that shows progress for
  /// longer than the session's deadline without a change has hung.
  package func tick(showing tree: ViewTree) throws -> SceneUpdate? {
    if let change = try session.takeChange() {
      busySince = nil
      return change
    }
    guard tree.isBusy else {
      busySince = nil
      return nil
    }
    let since = busySince ?? .now
    busySince = since
    if since.duration(to: .now) > session.timeout {
      throw SceneError.stillBusy(provider: session.bundle.identifier, tree: tree, pressing: nil, after: session.timeout)
        .hostError
    }
    return nil
  }
}
