/// A scene that a translation provider presents, as Apple's protocol of the
/// same name. The only conforming type is `TranslationUIProviderSelectedTextScene`.
public protocol TranslationUIProviderExtensionScene {}

/// What the SDK needs from a scene: a way to build its root view for a context.
protocol SceneContentProviding {
  @MainActor func makeRootView(for context: any TranslationUIProviderContext) -> any View
}
