/// What the host hands a scene: the text, whether it may be replaced, and the
/// way to finish, as Apple's `TranslationUIProviderContext`: observable, so
/// a view may hold it in `@State`, `@Bindable` or a model of its own.
public protocol TranslationUIProviderContext: AnyObject, Observable {
  /// The source text to translate, or nil when the host has none.
  var inputText: AttributedString? { get }

  /// Whether `finish(translation:)` may replace the source text.
  var allowsReplacement: Bool { get }

  /// Completes the translation; the host then closes the scene.
  ///
  /// Pass nil to close without replacing. A non-nil translation is ignored
  /// when `allowsReplacement` is false. Only the first call has an effect.
  func finish(translation: AttributedString?)

  /// Asks the host to give the scene more room.
  func expandSheet()

  /// The language the caller says the text is in (BCP-47), or nil.
  /// A Linux addition: Apple's context has no language hints.
  var sourceLanguage: String? { get }

  /// The language the caller wants (BCP-47), or nil. A Linux addition.
  var targetLanguage: String? { get }
}

extension TranslationUIProviderContext {
  public var sourceLanguage: String? { nil }
  public var targetLanguage: String? { nil }
}

extension TranslationUIProviderContext {
  /// Completes the translation, replacing the source text with `translation`.
  ///
  /// This is the call Apple's "Preparing your app to be the default
  /// translation app" sample makes; it is `finish(translation:)` by another name.
  public func finish(replacingWithTranslation translation: AttributedString) {
    finish(translation: translation)
  }
}
