/// What a provider asked of the host outside a host call, as the runner
/// forwards it between replies.
package enum SceneEvent: Sendable, Equatable {
  case finished(translation: String?)
  case renderRequested
  case expandSheet
  /// The provider broke a rule of the ABI; the host ends it and applies nothing.
  case violation(String)
}
