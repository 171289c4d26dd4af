import Core
import FoundationEssentials
import Service
import Synchronization
import System

/// How the service's provider references resolved, each kept until a file
/// that decided it changes: the search folders (a bundle added or removed),
/// the default-provider list (`set-default`), the provider's settings
/// (`config`) and the bundle's own files. Each is stamped as the registry
/// cache stamps files (size, modification time, inode, mode, owner) and
/// watched (`FileWatch`, inotify): a warm request costs one `read` that finds
/// no event, instead of a `stat` of each file (and those instead of a
/// registry scan). After an event the stamps decide, and the watch is renewed.
final class ResolutionCache: Sendable {
  /// A resolved reference. A class, shared and never changed: a request
  /// passes it through several hands, and a copy of its fields was some
  /// thirty reference counts each time.
  final class Resolution: Sendable {
    let bundle: ProviderBundle
    /// The notices the direct path would print (how the default was chosen, manifest warnings).
    let notices: [String]
    /// Which runners may serve it (same bundle, same files, same settings).
    let key: RunnerPool.Key
    /// The files that decided it, and their state then (nil: missing).
    fileprivate let stamps: [(path: String, status: FileStatus?)]
    /// Watches the stamped files since they were found as stamped; nil
    /// without inotify, or after the files changed while the watch began.
    let watch: FileWatch?

    fileprivate init(
      bundle: ProviderBundle, notices: [String], key: RunnerPool.Key, stamps: [(path: String, status: FileStatus?)],
      watch: FileWatch?
    ) {
      self.bundle = bundle
      self.notices = notices
      self.key = key
      self.stamps = stamps
      self.watch = watch
    }

    fileprivate var stampsMatch: Bool {
      stamps.allSatisfy { (try? FileStatus(path: $0.path)) == $0.status }
    }

    /// The same, watched from now on: the watch begins, then the stamps are
    /// checked once more, so a change in between is not missed. Nil if they
    /// changed. (Without inotify, unwatched: each request checks the stamps.)
    fileprivate func rewatched() -> Resolution? {
      let watch = try? FileWatch(paths: stamps.map(\.path))
      guard stampsMatch else { return nil }
      return Resolution(bundle: bundle, notices: notices, key: key, stamps: stamps, watch: watch)
    }

    /// Whether it is known to be current without asking the kernel: a
    /// `poll` found its watch with nothing to read after the request arrived
    /// (`watchFoundQuiet`: no change came before the request), and no one
    /// has read a change from it either.
    func isCurrent(watchFoundQuiet: Bool) -> Bool {
      guard watchFoundQuiet, let watch else { return false }
      return !watch.hasSeenChange
    }
  }

  private let environment: [String: String]
  private let resolutions = Mutex<[String: Resolution]>([:])

  init(environment: [String: String]) { self.environment = environment }

  /// The bundle `reference` names (nil: the default provider), re-read only
  /// when something that decided it changed since the last time.
  func resolve(_ reference: String?) throws -> Resolution {
    let name = reference ?? ""
    if let cached = resolutions.withLock({ $0[name] }) {
      if let watch = cached.watch, !watch.hasChanged { return cached }
      if cached.stampsMatch, let renewed = cached.rewatched() {
        resolutions.withLock { $0[name] = renewed }
        return renewed
      }
    }
    // Stamped before reading, so a change during resolution is seen next time.
    let searchFolders = SearchPath.standard(environment: environment).folders.map(\.path)
    let configuration = XDGFolders(environment: environment).config
    let settingsFolder = SettingsStore.standard(environment: environment).folder
    var stamps = Self.stamps(of: searchFolders + [DefaultPreferences.standard(environment: environment).file, settingsFolder])
    var notices: [String] = []
    let bundle = try ProviderResolution.bundle(
      named: reference, environment: environment, searchPathOnly: true, notice: { notices.append($0) })
    let bundleFiles = ((try? Directory.names(at: bundle.path)) ?? []).sorted().map { bundle.path + "/" + $0 }
    let bundleStamps = Self.stamps(of: [bundle.path] + bundleFiles + [bundle.executablePath])
    stamps += bundleStamps + Self.stamps(of: [settingsFolder + "/" + bundle.identifier + ".json", configuration])
    let settings = try SettingsStore.standard(environment: environment).effectiveJSON(for: bundle)
    let generation = bundleStamps.map {
      "\($0.path)=\($0.status.map { "\($0.size):\($0.modified):\($0.changed):\($0.inode)" } ?? "-")"
    }
    // Unwatched if the files changed meanwhile: the next request checks the stamps, and resolves again.
    let found = Resolution(
      bundle: bundle, notices: notices,
      key: RunnerPool.Key(path: bundle.path, settings: settings, generation: generation.joined(separator: "\n")),
      stamps: stamps, watch: nil)
    let resolution = found.rewatched() ?? found
    resolutions.withLock { $0[name] = resolution }
    return resolution
  }

  private static func stamps(of paths: [String]) -> [(path: String, status: FileStatus?)] {
    paths.map { ($0, try? FileStatus(path: $0)) }
  }
}
