/// Which provider `run` uses when none is named, and why.
package struct DefaultChoice: Equatable, Sendable {
  /// The chosen provider, or nil when no eligible provider is installed.
  package var entry: RegistryEntry?
  /// How the choice was made, one step a line (`default --explain`).
  package var explanation: [String]
  /// A one-line notice for `run` when the choice is not the user's first
  /// preference (it disappeared) or was made by rule; nil when it was.
  package var notice: String?

  /// Chooses from `snapshot` given the user's `preferences` (most preferred
  /// first): the first preference that is installed and usable; otherwise,
  /// by rule, the first search folder holding a usable provider, and in it
  /// the lowest bundle identifier.
  package static func choose(from snapshot: RegistrySnapshot, preferences: [String]) -> DefaultChoice {
    var steps: [String] = []
    for (index, identifier) in preferences.enumerated() {
      let candidates = snapshot.entries.filter { $0.identifier == identifier }
      guard let candidate = candidates.first(where: { $0.shadowedBy == nil }) else {
        steps.append("skipped '\(identifier)' (preference \(index + 1)): not installed")
        continue
      }
      guard candidate.isUsable else {
        let reason = candidate.problemDescriptions.first ?? "not eligible"
        steps.append("skipped '\(identifier)' (preference \(index + 1)): \(reason)")
        continue
      }
      steps.append("chose '\(identifier)' (preference \(index + 1)) at \(candidate.path)")
      let notice =
        index == 0
        ? nil
        : "the default provider '\(preferences[0])' is not usable; using '\(identifier)', the next in your preferences (see 'translation-host default --explain')"
      return DefaultChoice(entry: candidate, explanation: steps, notice: notice)
    }
    if preferences.isEmpty { steps.append("no default is configured ('translation-host set-default <provider>' sets one)") }
    // One pass over the entries, in place: copying the usable ones cost a listing of 10,000 bundles more than their stats.
    let entries = snapshot.entries
    var found: Int?
    for index in entries.indices where entries[index].isUsable {
      guard let best = found else {
        found = index
        continue
      }
      if entries[index].folder == entries[best].folder,
        entries[index].identifier ?? "" < entries[best].identifier ?? ""
      {
        found = index
      }
    }
    guard let found else {
      steps.append("no eligible provider is installed")
      return DefaultChoice(entry: nil, explanation: steps, notice: nil)
    }
    let chosen = entries[found]
    let folder = chosen.folder
    steps.append(
      "chose '\(chosen.identifier ?? "")' by rule: the first folder in the search path with an eligible provider (\(folder.path)), lowest bundle id there"
    )
    let notice =
      preferences.isEmpty
      ? "no default provider is set; using '\(chosen.identifier ?? "")' (set one with 'translation-host set-default')"
      : "none of your default providers is usable; using '\(chosen.identifier ?? "")' (see 'translation-host default --explain')"
    return DefaultChoice(entry: chosen, explanation: steps, notice: notice)
  }
}
