import Glibc
import System

/// What the engine loads into Apertium's stages with `LD_PRELOAD`.
/// - `libApertiumTaggerOpenClass.so` from the Apertium provider's bundle
///   (`Sources/ApertiumTaggerOpenClass`): Apertium's tagger without the state
///   one text leaves to the next, so that each text of a batch is translated
///   as if alone (without it, about one text in a hundred is not);
///
/// The others make the stages cheaper and leave their output as it is (the
/// engine's tests compare it with `apertium` with and without them):
/// - `libApertiumIntegerScan.so` from the Apertium provider's bundle
///   (`Sources/ApertiumIntegerScan`, `make build` puts it there): about half
///   of `apertium-postchunk`'s CPU was ICU building a number parser per tag number;
/// - `libApertiumMatchCache.so` from the same bundle (`Sources/ApertiumMatchCache`):
///   the transfer stages ask the same attribute of the same word many times,
///   and each time built an ICU regular-expression matcher (43% of
///   `apertium-transfer`'s CPU); the answers are remembered;
/// - mimalloc (Debian's `libmimalloc2.0`), when installed: the stages
///   allocate and free a small object per transducer step, and glibc's
///   allocator took a third of `lt-proc -b`'s CPU; about a sixth less CPU
///   for the whole pipeline (tcmalloc did as well; mimalloc kept the least memory).
public struct ApertiumStagePreload: Sendable, Equatable {
  public static let taggerOpenClass = "libApertiumTaggerOpenClass.so"
  public static let integerScan = "libApertiumIntegerScan.so"
  public static let matchCache = "libApertiumMatchCache.so"
  public static let allocator = "libmimalloc.so.2"
  /// The libraries, each an absolute path.
  public let paths: [String]

  /// Nothing loaded: the stages as Debian ships them.
  public static let none = ApertiumStagePreload(paths: [])

  init(paths: [String]) { self.paths = paths }

  /// The tagger's fix, the integer scan and the match cache from the bundle in `folder` (nil: none), and the
  /// allocator from the system's library folders. A library is left out if
  /// it is missing, if another user may have written it (it would run in
  /// every stage; the host checks only a bundle's manifest, entitlements and
  /// shared object), or if `LD_PRELOAD` cannot name it (its list is split at
  /// blanks and colons).
  public init(bundle folder: String?, libraryFolders: [String] = Self.systemLibraryFolders) {
    let candidates =
      [Self.taggerOpenClass, Self.integerScan, Self.matchCache].map { name in folder.map { $0 + "/" + name } } + [
        libraryFolders.lazy.map { $0 + "/" + Self.allocator }.first(where: Self.isUsable)
      ]
    paths = candidates.compactMap { $0 }.filter(Self.isUsable)
  }

  /// Where the dynamic linker finds Debian's libraries: the multiarch folders first.
  public static let systemLibraryFolders: [String] = {
    var system = utsname()
    uname(&system)
    let machine = withUnsafeBytes(of: system.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    return ["/usr/lib/\(machine)-linux-gnu", "/lib/\(machine)-linux-gnu", "/usr/lib", "/lib"]
  }()

  private static func isUsable(_ path: String) -> Bool {
    guard let status = try? FileStatus(path: path), status.isRegularFile, !status.isWritableByOthers,
      status.owner == 0 || status.owner == FileStatus.currentUser
    else { return false }
    return !path.contains(where: { $0 == " " || $0 == ":" || $0 == "\t" })
  }

  /// `LD_PRELOAD` for the stages: these libraries first, then what was
  /// there; nil when there is nothing to preload.
  func environmentValue(after existing: String?) -> String? {
    let all = paths + [existing].compactMap { $0 }.filter { !$0.isEmpty }
    return all.isEmpty ? nil : all.joined(separator: " ")
  }
}
