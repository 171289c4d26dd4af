import FoundationEssentials

/// Finds provider bundles in the search path of DESIGN §4.
///
/// This is the simple, uncached search `run` and `translate` need; the
/// registry issue replaces it with cached discovery and shadowing reports.
package struct ProviderLocator: Sendable {
  /// The folders searched, first to last.
  package var searchPath: [String]

  package init(searchPath: [String]) { self.searchPath = searchPath }

  /// The search path for this process: `TRANSLATION_HOST_PROVIDER_PATH`, the
  /// user's data folder, the folder relative to the executable, then the system's.
  package static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> ProviderLocator {
    var folders: [String] = []
    if let custom = environment["TRANSLATION_HOST_PROVIDER_PATH"] {
      folders += custom.split(separator: ":").map(String.init)
    }
    let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? (environment["HOME"] ?? "/") + "/.local/share"
    folders.append(dataHome + "/translation-host/providers")
    if let executable = Syscalls.executablePath() {
      let prefix = URL(fileURLWithPath: executable).deletingLastPathComponent().deletingLastPathComponent()
      folders.append(prefix.path + "/lib/translation-host/providers")
    }
    folders += ["/usr/local/lib/translation-host/providers", "/usr/lib/translation-host/providers"]
    return ProviderLocator(searchPath: folders)
  }

  /// Every bundle directory in the search path, in search order.
  package func bundlePaths() -> [String] {
    searchPath.flatMap { folder in
      ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        .filter { $0.hasSuffix(".translationprovider") }
        .sorted()
        .map { folder + "/" + $0 }
    }
  }

  /// The bundle that `reference` names: a bundle path, or the identifier or
  /// name of a bundle in the search path (the first in search order wins).
  package func bundle(named reference: String) throws(LocatorError) -> ProviderBundle {
    if reference.contains("/") || reference.hasSuffix(".translationprovider") {
      do { return try ProviderBundle.load(at: reference) } catch { throw .invalidBundle(error) }
    }
    var problems: [ManifestError] = []
    for path in bundlePaths() {
      do {
        let bundle = try ProviderBundle.load(at: path)
        if bundle.identifier == reference || bundle.name == reference { return bundle }
      } catch {
        problems.append(error)
      }
    }
    throw .notFound(reference, searched: searchPath, problems: problems)
  }

  /// The provider used when none is named: the first translation app in
  /// search order, by bundle identifier within a folder.
  package func fallbackBundle() throws(LocatorError) -> ProviderBundle {
    for path in bundlePaths() {
      if let bundle = try? ProviderBundle.load(at: path), bundle.isTranslationApp { return bundle }
    }
    throw .noProviders(searched: searchPath)
  }
}

/// Why no bundle could be found for a reference.
package enum LocatorError: Error, Equatable, CustomStringConvertible {
  case notFound(String, searched: [String], problems: [ManifestError])
  case noProviders(searched: [String])
  case invalidBundle(ManifestError)

  package var description: String {
    switch self {
    case .notFound(let reference, let searched, let problems):
      "no provider '\(reference)' in \(searched.joined(separator: ":")); pass a bundle id, name or path"
        + problems.map { "\n  skipped: \($0)" }.joined()
    case .noProviders(let searched):
      "no eligible provider installed in \(searched.joined(separator: ":")); install one or pass --provider"
    case .invalidBundle(let error):
      error.description
    }
  }
}
