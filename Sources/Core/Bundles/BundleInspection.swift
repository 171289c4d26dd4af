import System

/// Everything read from one bundle folder, without running any of its code:
/// the manifest if it is usable, every problem found, and the status of each
/// file read (the registry cache's key).
package struct BundleInspection: Equatable, Sendable {
  package var path: String
  package var manifest: ProviderBundle?
  package var problems: [ManifestError]
  /// `stat` of the folder (key `.`) and of each file read, by name.
  package var files: [String: FileStatus]

  /// A translation app whose manifest has no problem that stops it from running.
  package var isEligible: Bool {
    manifest?.isTranslationApp == true && !problems.contains(where: \.preventsRunning)
  }
}
