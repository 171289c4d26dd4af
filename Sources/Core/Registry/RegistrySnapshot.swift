/// Every bundle in the search path at one moment, in search order, with
/// shadowing resolved and the search folders' own problems.
package struct RegistrySnapshot: Equatable, Sendable {
  package var searchPath: SearchPath
  package var entries: [RegistryEntry]
  /// Search folders refused as a whole (writable by others, foreign owner).
  package var folderProblems: [ManifestError]

  /// Entries that may run, in search order.
  package var usable: [RegistryEntry] { entries.filter(\.isUsable) }

  /// The entry `reference` names: a bundle path, identifier, or name.
  /// Identifiers and names match only entries that are not shadowed.
  package func entry(named reference: String) throws(RegistryError) -> RegistryEntry {
    if reference.contains("/") {
      let path = SearchPath.normalized(reference)
      if let found = entries.first(where: { SearchPath.normalized($0.path) == path }) { return found }
      throw .notFound(reference, searched: searchPath.folders.map(\.path))
    }
    let visible = entries.filter { $0.shadowedBy == nil }
    if let found = visible.first(where: { $0.identifier == reference }) { return found }
    let named = visible.filter { $0.manifest?.name == reference || $0.manifest?.displayName == reference }
    let identifiers = Set(named.compactMap(\.identifier))
    guard identifiers.count <= 1 else { throw .ambiguous(reference, identifiers: identifiers.sorted()) }
    if let found = named.first { return found }
    throw .notFound(reference, searched: searchPath.folders.map(\.path))
  }
}
