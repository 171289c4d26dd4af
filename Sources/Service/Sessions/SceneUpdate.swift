import TranslationViewTree

/// What a scene request produced.
package enum SceneUpdate: Equatable, Sendable {
  case view(ViewTree)
  /// The scene finished; `translation` is the complete replacement, if any.
  case finished(translation: String?)
}
