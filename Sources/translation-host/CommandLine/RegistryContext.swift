import Core

/// The registry and the default choice, as the listing commands need them.
struct RegistryContext {
  let snapshot: RegistrySnapshot
  let preferences: [String]
  let ignoredPreferences: [String]
  let choice: DefaultChoice

  init() throws {
    snapshot = ProviderRegistry.standard().scan()
    (preferences, ignoredPreferences) = try DefaultPreferences.standard().read()
    choice = DefaultChoice.choose(from: snapshot, preferences: preferences)
  }

  func summary(_ entry: RegistryEntry) -> ProviderSummary {
    ProviderSummary(entry, defaultPath: choice.entry?.path)
  }
}
