import System

/// The library the engine loads into Apertium's stages with `LD_PRELOAD`
/// (`Sources/ApertiumIntegerScan`): the same output, with about half of
/// `apertium-postchunk`'s CPU gone. `make build` puts it in the Apertium
/// provider's bundle.
public struct ApertiumStageLibrary: Sendable, Equatable {
  public static let fileName = "libApertiumIntegerScan.so"
  public let path: String

  /// The library in `folder`; nil if it is not there, if another user may
  /// have written it (it would run in every stage; the host checks only a
  /// bundle's manifest, entitlements and shared object), or if `LD_PRELOAD`
  /// cannot name it (its list is split at blanks and colons).
  public init?(folder: String) {
    let path = folder + "/" + Self.fileName
    guard let status = try? FileStatus(path: path), status.isRegularFile, !status.isWritableByOthers,
      status.owner == 0 || status.owner == FileStatus.currentUser,
      !path.contains(where: { $0 == " " || $0 == ":" || $0 == "\t" })
    else { return nil }
    self.path = path
  }

  /// `LD_PRELOAD` for the stages: this library first, then what was there.
  func preload(after existing: String?) -> String {
    guard let existing, !existing.isEmpty else { return path }
    return path + " " + existing
  }
}
