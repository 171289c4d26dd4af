import FoundationEssentials
import Synchronization
import System

/// Apertium pairs that Debian packages and this machine has not installed,
/// from `apt-cache pkgnames apertium-`: the `supported` pairs of
/// `LanguageAvailability` (possible once the package is installed).
public enum DebianPairPackages {
  /// A pair package and the directions it provides (both, as Debian's pair packages do).
  public struct Package: Equatable, Sendable {
    public var name: String
    public var source: String
    public var target: String
  }

  /// The files whose change can change the answer: what dpkg installed,
  /// the package lists apt fetched, and apt's cache of them.
  static let watchedPaths = ["/var/lib/dpkg/status", "/var/lib/apt/lists", "/var/cache/apt/pkgcache.bin"]

  /// The last answer, and the state of `watchedPaths` it was read in.
  private static let cache = Mutex<(signature: [FileStatus?], packages: [Package])?>(nil)

  /// The pair packages apt knows, as BCP-47 pairs in both directions; empty
  /// where apt is not there. Asking apt takes about a second (apt-cache
  /// reads its cache), so the answer is kept, in this process and in a
  /// cache file (`PairPackageCache`) that the next process (a new runner)
  /// reads instead of asking apt, and asked again only when dpkg's status,
  /// apt's lists or apt's cache changed (a `stat` of each, a few microseconds).
  /// `environment` says where the cache file is (`XDG_CACHE_HOME`, `HOME`).
  public static func available(environment: [String: String] = ProcessInfo.processInfo.environment) -> [Package] {
    let signature = watchedPaths.map { try? FileStatus(path: $0) }
    if let cached = cache.withLock({ $0 }), cached.signature == signature { return cached.packages }
    let file = PairPackageCache(environment: environment)
    let stamp = PairPackageCache.stamp(of: zip(watchedPaths, signature).map { ($0, $1) })
    let names: String
    if let kept = file?.read(stamp: stamp) {
      names = kept
    } else {
      names = run("/usr/bin/apt-cache", ["pkgnames", "apertium-"]) ?? ""
      if !names.isEmpty { file?.write(names, stamp: stamp) }
    }
    let packages = parse(names)
    cache.withLock { $0 = (signature, packages) }
    return packages
  }

  /// What `apt-cache pkgnames apertium-` lists, read as pair packages.
  static func parse(_ names: String) -> [Package] {
    names.split(separator: "\n").flatMap { line -> [Package] in
      let parts = line.dropFirst("apertium-".count).split(separator: "-")
      let notLanguages: Set<Substring> = ["all", "dev", "tools", "lex", "get", "apy", "eval"]
      guard line.hasPrefix("apertium-"), parts.count == 2, !parts.contains(where: notLanguages.contains),
        parts.allSatisfy({ part in
          (2...3).contains(part.prefix { $0 != "_" }.count) && part.allSatisfy { $0.isLetter || $0 == "_" }
        })
      else { return [] }
      let (first, second) = (ApertiumLanguage.tag(forCode: String(parts[0])), ApertiumLanguage.tag(forCode: String(parts[1])))
      return [
        Package(name: String(line), source: first, target: second), Package(name: String(line), source: second, target: first),
      ]
    }
  }

  /// The standard output of a program, or nil if it cannot run or fails.
  private static func run(_ path: String, _ arguments: [String]) -> String? {
    guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
    // Close-on-exec from birth (see ApertiumPipeline).
    guard let (ours, theirs) = try? Syscalls.socketPair() else { return nil }
    let pid = try? Syscalls.spawn(
      path, arguments: arguments, environment: [],
      actions: [.nullDevice(as: .standardInput), .duplicate(theirs, as: .standardOutput), .nullDevice(as: .standardError)],
      newSession: false)
    Syscalls.close(theirs)
    defer { Syscalls.close(ours) }
    guard let pid else { return nil }
    let output = (try? Syscalls.readAll(ours)) ?? []
    guard let status = try? Syscalls.wait(pid) else { return nil }
    return status == 0 ? String(decoding: output, as: UTF8.self) : nil
  }
}
