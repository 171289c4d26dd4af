import TranslationViewTree

/// A piece of a provider's interface, as SwiftUI's `View`.
///
/// Compose views in `body`; the SDK flattens them into the view tree that
/// crosses the ABI and that the host draws. Views live on the main actor, as
/// SwiftUI's do: the host calls a scene on the provider's main thread.
@MainActor @preconcurrency public protocol View {
  /// The type of view this view's body is made of.
  associatedtype Body: View

  /// The content of the view.
  @ViewBuilder var body: Body { get }
}

extension Never: View {
  nonisolated public var body: Never { return preconditionFailure("Never has no body") }
}

/// A view the SDK draws itself rather than through `body`.
@MainActor protocol PrimitiveView {
  /// The nodes this view contributes, with control ids derived from `path`.
  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode]
}

extension PrimitiveView {
  /// Primitive views have no body; the renderer never asks for one.
  public var body: Never { return preconditionFailure("\(Self.self) is drawn by the SDK and has no body") }
}
