/// Which backend a session or availability check uses when the app does not
/// say (and Apple's API has no way to say).
enum BackendChoice {
  /// The user's default provider, in a runner this process starts.
  ///
  /// The resident service plugs in here: when `translation-host serve` is
  /// reachable, return a backend built on its `ServiceClient` instead, and
  /// fall back to the direct path when it is not.
  static func standard() -> any TranslationBackend {
    DirectBackend(provider: nil)
  }
}
