import FoundationEssentials

/// The library the engine loads into Apertium's stages with `LD_PRELOAD`
/// (`Sources/ApertiumIntegerScan`): the same output, with about half of
/// `apertium-postchunk`'s CPU gone. `make build` puts it in the Apertium
/// provider's bundle.
public struct ApertiumStageLibrary: Sendable, Equatable {
  public static let fileName = "libApertiumIntegerScan.so"
  public let path: String

  /// The library in `folder`; nil if it is not there, or if `LD_PRELOAD`
  /// cannot name it (its list is split at blanks and colons).
  public init?(folder: String) {
    let path = folder + "/" + Self.fileName
    guard FileManager.default.fileExists(atPath: path), !path.contains(where: { $0 == " " || $0 == ":" || $0 == "\t" })
    else { return nil }
    self.path = path
  }

  /// `LD_PRELOAD` for the stages: this library first, then what was there.
  func preload(after existing: String?) -> String {
    guard let existing, !existing.isEmpty else { return path }
    return path + " " + existing
  }
}
