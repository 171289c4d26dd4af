import FoundationEssentials
import System

/// Finds every bundle in the search path, reading each manifest only when its
/// files changed since the registry cache last saw them.
package struct ProviderRegistry: Sendable {
  package var searchPath: SearchPath
  /// Where the cache lives; nil disables it.
  package var cacheFile: String?

  package init(searchPath: SearchPath, cacheFile: String?) {
    self.searchPath = searchPath
    self.cacheFile = cacheFile
  }

  /// The registry for this process: the standard search path and the user's cache.
  package static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> ProviderRegistry {
    ProviderRegistry(
      searchPath: .standard(environment: environment),
      cacheFile: XDGFolders(environment: environment).cache + "/" + RegistryCache.fileName)
  }

  /// Scans the search path. Never runs provider code; never fails (a folder
  /// that cannot be read is simply empty, a bad one is reported).
  package func scan() -> RegistrySnapshot {
    let cached = cacheFile.flatMap { RegistryCache.load(from: $0) } ?? [:]
    var fresh: [String: BundleInspection] = [:]
    var changed = false
    var entries: [RegistryEntry] = []
    var folderProblems: [ManifestError] = []
    var owners: [String: String] = [:]

    for folder in searchPath.folders {
      guard let status = try? FileStatus(path: folder.path), status.isDirectory else { continue }
      if let problem = status.safetyProblem(at: folder.path) {
        folderProblems.append(problem)
        continue
      }
      guard let descriptor = try? Directory.open(folder.path) else { continue }
      defer { Directory.close(descriptor) }
      let names = ((try? Directory.names(at: folder.path)) ?? []).filter { $0.hasSuffix(".translationprovider") }.sorted()
      for name in names {
        let path = folder.path + "/" + name
        let inspection: BundleInspection
        if let previous = cached[path], RegistryCache.isCurrent(previous, name: name, in: descriptor) {
          inspection = previous
        } else {
          inspection = BundleInspector.inspect(path)
          changed = true
        }
        fresh[path] = inspection
        var entry = RegistryEntry(inspection: inspection, folder: folder, shadowedBy: nil)
        if let identifier = entry.identifier {
          if let first = owners[identifier] { entry.shadowedBy = first } else { owners[identifier] = path }
        }
        entries.append(entry)
      }
    }
    if let cacheFile, changed || fresh.count != cached.count {
      RegistryCache.save(fresh, to: cacheFile)
    }
    return RegistrySnapshot(searchPath: searchPath, entries: entries, folderProblems: folderProblems)
  }
}

extension SearchPath {
  /// `path` made absolute and without `.`/`..` components or trailing slashes.
  package static func normalized(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }
}
