/// The scene shown when a person asks to translate selected text, as Apple's
/// `TranslationUIProviderSelectedTextScene`.
public struct TranslationUIProviderSelectedTextScene<Content: View>: TranslationUIProviderExtensionScene {
  private let content: (any TranslationUIProviderContext) -> Content

  /// Creates the scene; `content` builds its view from the host's context.
  public init(content: @escaping (any TranslationUIProviderContext) -> Content) {
    self.content = content
  }
}

extension TranslationUIProviderSelectedTextScene: SceneContentProviding {
  func makeRootView(for context: any TranslationUIProviderContext) -> any View {
    content(context)
  }
}
