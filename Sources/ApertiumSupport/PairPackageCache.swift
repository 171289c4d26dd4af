import FoundationEssentials
import System

/// The answer of `apt-cache pkgnames apertium-` kept in a file, so that a
/// new process (each runner of the Apertium provider is one) does not ask
/// apt again (about 1.5 s) while nothing apt answers from has changed.
///
/// The file is `$XDG_CACHE_HOME/translation-host/apertium-pair-packages`
/// (default `~/.cache/…`); in a runner, HOME is the provider's container,
/// which every runner of the provider shares. Its first line is a stamp of
/// dpkg's status, apt's lists and apt's cache (path, size, modification and
/// change times, inode of each); a file with another stamp, or that is not
/// what this type writes, is not used, and the next answer replaces it
/// (written to a temporary file, then renamed). Its lines are read with the
/// same parser as apt's own output, so a file someone else wrote can at most
/// list pairs as installable.
struct PairPackageCache {
  static let fileName = "apertium-pair-packages"
  static let header = "translation-host apertium-pair-packages 1"
  /// More than apt's answer can be (about 100 names).
  static let maximumBytes = 256 * 1024

  let path: String

  /// The cache file for `environment`; nil without a home to keep it in.
  init?(environment: [String: String]) {
    let cache: String
    if let folder = environment["XDG_CACHE_HOME"], folder.hasPrefix("/") {
      cache = folder
    } else if let home = environment["HOME"], home.hasPrefix("/") {
      cache = home + "/.cache"
    } else {
      return nil
    }
    path = cache + "/translation-host/" + Self.fileName
  }

  /// The stamp of the files apt answers from.
  static func stamp(of files: [(path: String, status: FileStatus?)]) -> String {
    files.map { path, status in
      path + "=" + (status.map { "\($0.size):\($0.modified):\($0.changed):\($0.inode)" } ?? "-")
    }.joined(separator: " ")
  }

  /// The names kept with `stamp`, or nil (no file, another stamp, not this type's).
  func read(stamp: String) -> String? {
    guard let bytes = try? Directory.readPrefix(of: path, count: Self.maximumBytes + 1), bytes.count <= Self.maximumBytes,
      let text = String(validating: bytes, as: UTF8.self)
    else { return nil }
    let lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
    guard lines.count == 3, lines[0] == Self.header, lines[1] == stamp else { return nil }
    return String(lines[2])
  }

  /// Keeps `names` with `stamp`; a failure (a read-only home) only costs the next process a question to apt.
  func write(_ names: String, stamp: String) {
    guard !stamp.contains("\n") else { return }
    try? Directory.create(String(path[..<path.lastIndex(of: "/")!]), mode: 0o700)
    try? AtomicFile.write(Array((Self.header + "\n" + stamp + "\n" + names).utf8), to: path, mode: 0o600, durable: false)
  }
}
