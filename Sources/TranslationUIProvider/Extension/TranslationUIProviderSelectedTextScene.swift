/// The scene shown when a person asks to translate selected text, as Apple's
/// `TranslationUIProviderSelectedTextScene`.
public struct TranslationUIProviderSelectedTextScene<Content: View>: TranslationUIProviderExtensionScene {
  private let content: @MainActor (any TranslationUIProviderContext) -> Content

  /// Creates the scene; `content` builds its view from the host's context,
  /// on the main actor.
  public init(content: @escaping @MainActor (any TranslationUIProviderContext) -> Content) {
    self.content = content
  }
}

extension TranslationUIProviderSelectedTextScene: SceneContentProviding {
  @MainActor func makeRootView(for context: any TranslationUIProviderContext) -> any View {
    content(context)
  }
}
