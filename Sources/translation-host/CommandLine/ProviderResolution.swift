import TranslationHostCore

/// Turns what the user typed (`--provider`, or nothing) into a bundle that may run.
enum ProviderResolution {
  /// The bundle `reference` names (a path, an identifier or a name), or the
  /// default provider when it is nil. What runs is always read afresh from
  /// disk, never taken from the registry cache.
  static func bundle(named reference: String?, output: Output) throws -> ProviderBundle {
    let path: String
    let label: String
    if let reference, isPath(reference) {
      path = reference
      label = reference
    } else {
      let snapshot = ProviderRegistry.standard().scan()
      if let reference {
        path = try snapshot.entry(named: reference).path
        label = reference
      } else {
        let choice = DefaultChoice.choose(from: snapshot, preferences: (try? DefaultPreferences.standard().read().identifiers) ?? [])
        guard let entry = choice.entry else {
          throw RegistryError.noProviders(searched: snapshot.searchPath.folders.map(\.path))
        }
        if let notice = choice.notice { output.note(notice) }
        path = entry.path
        label = entry.identifier ?? entry.path
      }
    }
    let inspection = BundleInspector.inspect(path)
    guard let manifest = inspection.manifest, inspection.isEligible else {
      throw RegistryError.notEligible(label, reasons: inspection.problems.filter(\.preventsRunning).map(\.description))
    }
    for problem in inspection.problems { output.note("warning: \(problem)") }
    return manifest
  }

  /// Whether a reference is a path rather than an identifier or name.
  static func isPath(_ reference: String) -> Bool {
    reference.contains("/") || reference.hasSuffix(".translationprovider")
  }
}
