import System

/// Everything read from one bundle folder, without running any of its code:
/// the manifest if it is usable, every problem found, and the status of each
/// file read (the registry cache's key).
package struct BundleInspection: Equatable, Sendable {
  package var path: String
  package var manifest: ProviderBundle?
  package var problems: [ManifestError]
  /// `stat` of the folder (named `.`), of each file read and of every
  /// folder and regular file in the bundle's tree, sorted by name.
  package var files: [File]

  /// A file read or checked, with its `stat` then: a key of the registry cache.
  package struct File: Equatable, Sendable {
    /// The path in the bundle folder (`Resources/data.bin`), or `.` for the folder itself.
    package var name: String
    package var status: FileStatus

    package init(name: String, status: FileStatus) {
      self.name = name
      self.status = status
    }
  }

  /// A translation app whose manifest has no problem that stops it from running.
  @inlinable package var isEligible: Bool {
    manifest?.isTranslationApp == true && !problems.contains(where: \.preventsRunning)
  }
}
