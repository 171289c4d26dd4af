import FoundationEssentials

/// Turns a provider reference (`--provider`, a client's choice, or nothing)
/// into a bundle that may run.
package enum ProviderResolution {
  /// The bundle `reference` names (a path, an identifier or a name), or the
  /// default provider when it is nil. What runs is always read afresh from
  /// disk, never taken from the registry cache.
  /// - Parameters:
  ///   - environment: where the search folders and the default-provider list are (the service passes its own).
  ///   - searchPathOnly: whether a path must name a bundle the search path
  ///     lists. The resident service sets it: its clients include any process
  ///     of the user, a sandboxed provider among them, and a bundle such a
  ///     provider wrote (declaring network access, say) must not be run for it.
  ///   - notice: receives one-line notices (how the default was chosen) and manifest warnings.
  /// - Throws: `RegistryError.outsideSearchPath` for a path the search path does not list, with `searchPathOnly`;
  ///   `RegistryError.identifierHeld` for a bundle whose identifier another bundle holds (one shadowed in the
  ///   search path, or one outside it that claims an installed provider's identifier).
  package static func bundle(
    named reference: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
    searchPathOnly: Bool = false, notice: (String) -> Void
  ) throws -> ProviderBundle {
    let path: String
    let label: String
    let snapshot = ProviderRegistry.standard(environment: environment).scan()
    if let reference, isPath(reference), searchPathOnly {
      guard let entry = listed(reference, in: snapshot) else {
        throw RegistryError.outsideSearchPath(reference, searched: snapshot.searchPath.folders.map(\.path))
      }
      path = entry.path  // the registry's own path, not the caller's spelling of it
      label = reference
    } else if let reference, isPath(reference) {
      // Absolute, so the provider's `bundle_path` is too, however the user spelled it.
      path = SearchPath.normalized(reference)
      label = reference
    } else {
      if let reference {
        path = try snapshot.entry(named: reference).path
        label = reference
      } else {
        let choice = DefaultChoice.choose(
          from: snapshot, preferences: (try? DefaultPreferences.standard(environment: environment).read().identifiers) ?? [])
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
    // What runs is what the manifest says now: its identifier must still be this bundle's.
    if case .heldBy(let owner) = IdentityClaim(identifier: manifest.identifier, path: path, in: snapshot) {
      throw RegistryError.identifierHeld(path, identifier: manifest.identifier, owner: owner)
    }
    for problem in inspection.problems { notice("warning: \(problem)") }
    return manifest
  }

  /// The entry of `snapshot` at the bundle path `reference` (compared with
  /// `.` and `..` resolved), or nil when the search path does not list it.
  package static func listed(_ reference: String, in snapshot: RegistrySnapshot) -> RegistryEntry? {
    guard reference.hasPrefix("/") else { return nil }
    let path = SearchPath.normalized(reference)
    return snapshot.entries.first { SearchPath.normalized($0.path) == path }
  }

  /// Whether a reference is a path rather than an identifier or name.
  package static func isPath(_ reference: String) -> Bool {
    reference.contains("/") || reference.hasSuffix(".translationprovider")
  }
}
