import FoundationEssentials

/// Turns a provider reference (`--provider`, a client's choice, or nothing)
/// into a bundle that may run.
package enum ProviderResolution {
  /// The bundle `reference` names (a path, an identifier or a name), or the
  /// default provider when it is nil. What runs is always read afresh from
  /// disk, never taken from the registry cache.
  /// - Parameters:
  ///   - environment: where the search folders and the default-provider list are (the service passes its own).
  ///   - notice: receives one-line notices (how the default was chosen) and manifest warnings.
  package static func bundle(
    named reference: String?, environment: [String: String] = ProcessInfo.processInfo.environment, notice: (String) -> Void
  ) throws -> ProviderBundle {
    let path: String
    let label: String
    if let reference, isPath(reference) {
      path = reference
      label = reference
    } else {
      let snapshot = ProviderRegistry.standard(environment: environment).scan()
      if let reference {
        path = try snapshot.entry(named: reference).path
        label = reference
      } else {
        let choice = DefaultChoice.choose(from: snapshot, preferences: (try? DefaultPreferences.standard(environment: environment).read().identifiers) ?? [])
        guard let entry = choice.entry else {
          throw RegistryError.noProviders(searched: snapshot.searchPath.folders.map(\.path))
        }
        if let message = choice.notice { notice(message) }
        path = entry.path
        label = entry.identifier ?? entry.path
      }
    }
    let inspection = BundleInspector.inspect(path)
    guard let manifest = inspection.manifest, inspection.isEligible else {
      throw RegistryError.notEligible(label, reasons: inspection.problems.filter(\.preventsRunning).map(\.description))
    }
    for problem in inspection.problems { notice("warning: \(problem)") }
    return manifest
  }

  /// Whether a reference is a path rather than an identifier or name.
  package static func isPath(_ reference: String) -> Bool {
    reference.contains("/") || reference.hasSuffix(".translationprovider")
  }
}
