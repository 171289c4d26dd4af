import Service

/// Which backend a session or availability check uses when the app does not
/// say (and Apple's API has no way to say).
enum BackendChoice {
  /// The user's default provider: through the resident service
  /// (`translation-host serve`) when it is running and sees what this
  /// process sees, and in a runner this process starts otherwise, as the
  /// CLI chooses (`ProviderLaunch`).
  static func standard() -> any TranslationBackend {
    SessionBackend(provider: nil)
  }
}
