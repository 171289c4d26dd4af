import Core
import FoundationEssentials
import Service
import Synchronization
import System

/// How the service's provider references resolved, each kept until a file
/// that decided it changes: the search folders (a bundle added or removed),
/// the default-provider list (`set-default`), the provider's settings
/// (`config`) and the bundle's own files. Each is stamped as the registry
/// cache stamps files (size, modification time, inode, mode, owner), so a
/// warm request costs a few `stat` calls instead of a registry scan.
final class ResolutionCache: Sendable {
  /// A resolved reference.
  struct Resolution: Sendable {
    var bundle: ProviderBundle
    /// The notices the direct path would print (how the default was chosen, manifest warnings).
    var notices: [String]
    /// Which runners may serve it (same bundle, same files, same settings).
    var key: RunnerPool.Key
    /// The files that decided it, and their state then (nil: missing).
    fileprivate var stamps: [(path: String, status: FileStatus?)]

    fileprivate var isCurrent: Bool {
      stamps.allSatisfy { (try? FileStatus(path: $0.path)) == $0.status }
    }
  }

  private let environment: [String: String]
  private let resolutions = Mutex<[String: Resolution]>([:])

  init(environment: [String: String]) { self.environment = environment }

  /// The bundle `reference` names (nil: the default provider), re-read only
  /// when something that decided it changed since the last time.
  func resolve(_ reference: String?) throws -> Resolution {
    let name = reference ?? ""
    if let cached = resolutions.withLock({ $0[name] }), cached.isCurrent { return cached }
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
    let generation = bundleStamps.map { "\($0.path)=\($0.status.map { "\($0.size):\($0.modified):\($0.inode)" } ?? "-")" }
    let resolution = Resolution(
      bundle: bundle, notices: notices,
      key: RunnerPool.Key(path: bundle.path, settings: settings, generation: generation.joined(separator: "\n")),
      stamps: stamps)
    resolutions.withLock { $0[name] = resolution }
    return resolution
  }

  private static func stamps(of paths: [String]) -> [(path: String, status: FileStatus?)] {
    paths.map { ($0, try? FileStatus(path: $0)) }
  }
}
