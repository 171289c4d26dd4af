import FoundationEssentials

/// One bundle found in the search path.
package struct RegistryEntry: Equatable, Sendable {
  /// What its files say.
  package var inspection: BundleInspection
  /// The search-path folder it was found in.
  package var folder: SearchPath.Folder
  /// The path of the bundle with the same identifier that comes first in the
  /// search path, when this one is hidden by it.
  package var shadowedBy: String?

  /// A bundle named by its path that is not in the search path (an author's
  /// build folder, say), described as it is.
  package static func standalone(at path: String) -> RegistryEntry {
    let path = SearchPath.normalized(path)
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    return RegistryEntry(
      inspection: BundleInspector.inspect(path), folder: SearchPath.Folder(path: folder, origin: .environment), shadowedBy: nil)
  }

  // Inlinable, as the other accessors a listing calls per entry: a call into
  // Core made the CLI copy each entry out of the snapshot first.
  @inlinable package var path: String { inspection.path }
  @inlinable package var manifest: ProviderBundle? { inspection.manifest }
  @inlinable package var identifier: String? { inspection.manifest?.identifier }

  /// Eligible and not shadowed: a provider that may run and be the default.
  @inlinable package var isUsable: Bool { inspection.isEligible && shadowedBy == nil }

  /// Every reason the entry is not usable, as one-line diagnostics.
  package var problemDescriptions: [String] {
    inspection.problems.map(\.description)
      + (shadowedBy.map { ["\(path): shadowed by \($0), which has the same identifier and comes first in the search path"] } ?? [])
  }
}
