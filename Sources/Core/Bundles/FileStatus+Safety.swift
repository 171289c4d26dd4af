import System

extension FileStatus {
  /// Why a provider file or folder with this status could carry someone
  /// else's code: another user may write it (group or others, sticky bit or
  /// not), or it belongs to a user who is neither this one nor root.
  package func safetyProblem(at path: String) -> ManifestError? {
    if isWritableByOthers { return .writableByOthers(path, mode: mode) }
    if owner != 0 && owner != FileStatus.currentUser { return .foreignOwner(path, owner: owner) }
    return nil
  }
}
