import Core

/// The registry and the default choice, as the listing commands need them.
/// A class, so that a command about to exit can keep it (`keepUntilExit`).
final class RegistryContext {
  let snapshot: RegistrySnapshot
  let preferences: [String]
  let ignoredPreferences: [String]
  let choice: DefaultChoice
  /// The keys identifiers are pinned to (`SignaturePins`).
  let pins: [String: String]

  init() throws {
    snapshot = ProviderRegistry.standard().scan()
    (preferences, ignoredPreferences) = try DefaultPreferences.standard().read()
    choice = DefaultChoice.choose(from: snapshot, preferences: preferences)
    pins = SignaturePins.standard().read()
  }

  func summary(_ entry: RegistryEntry) -> ProviderSummary {
    ProviderSummary(entry, defaultPath: choice.entry?.path, pins: pins)
  }

  /// Leaves the context to the process's exit instead of freeing it: a
  /// command that exits once it has written its output need not release a
  /// snapshot of 10,000 bundles value by value, which cost a tenth of a warm
  /// `list` (as clang's `-disable-free` leaves its syntax trees to the exit).
  func keepUntilExit() { _ = Unmanaged.passRetained(self) }
}
