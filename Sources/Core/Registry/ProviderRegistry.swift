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
    var cache = cacheFile.flatMap { RegistryCache.load(from: $0) }
    var changed = false
    var entries: [RegistryEntry] = []
    entries.reserveCapacity(cache?.count ?? 0)
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
      let paths = Self.sorted((try? Directory.paths(in: folder.path, endingWith: ".translationprovider")) ?? [], in: folder)
      let nameStart = folder.path.utf8.count + 1
      for path in paths {
        let inspection: BundleInspection
        if let previous = cache?.currentInspection(of: path, nameStart: nameStart, in: descriptor) {
          inspection = previous
        } else {
          inspection = BundleInspector.inspect(path)
          changed = true
        }
        var shadowedBy: String?
        if let identifier = inspection.manifest?.identifier {
          if let first = owners[identifier] { shadowedBy = first } else { owners[identifier] = path }
        }
        entries.append(RegistryEntry(inspection: consume inspection, folder: folder, shadowedBy: shadowedBy))
      }
    }
    // Every entry found its record and there are no others: the cache says it all.
    if let cacheFile, changed || (cache?.count ?? 0) != entries.count {
      RegistryCache.save(entries.map(\.inspection), to: cacheFile)
    }
    return RegistrySnapshot(searchPath: searchPath, entries: entries, folderProblems: folderProblems)
  }

  /// `paths` (of bundles in `folder`) in the String order of their names.
  /// `Directory.paths` sorts them by the bytes of the names, which is the
  /// same order when they are ASCII, the usual case, and much cheaper.
  static func sorted(_ paths: [String], in folder: SearchPath.Folder) -> [String] {
    guard !paths.allSatisfy(\.isASCII) else { return paths }
    let nameStart = folder.path.utf8.count + 1
    return paths.sorted { Substring($0.utf8.dropFirst(nameStart)) < Substring($1.utf8.dropFirst(nameStart)) }
  }
}

extension SearchPath {
  /// `path` made absolute and without `.`/`..` components or trailing slashes.
  package static func normalized(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }
}
