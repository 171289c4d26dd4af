import FoundationEssentials
import System

/// The folders searched for provider bundles, first to last (DESIGN §4).
package struct SearchPath: Equatable, Sendable {
  /// Where a folder of the search path comes from.
  package enum Origin: String, Codable, Sendable {
    /// `$TRANSLATION_HOST_PROVIDER_PATH`.
    case environment
    /// `$XDG_DATA_HOME/translation-host/providers`: where `install` puts bundles.
    case user
    /// `<prefix>/lib/translation-host/providers` of the installation (`Installation`).
    case prefix
    /// `/usr/local/lib/…` and `/usr/lib/…`.
    case system
  }

  package struct Folder: Equatable, Sendable {
    package var path: String
    package var origin: Origin
  }

  package var folders: [Folder]

  package init(folders: [Folder]) { self.folders = folders }

  /// The user's own provider folder, where `install` puts bundles.
  package var userFolder: String { folders.first { $0.origin == .user }?.path ?? "" }

  /// What stands for the installation's providers in a search path that
  /// leaves the installation to the resident service (`ServiceContext`).
  package static let installationPlaceholder = "<installation>/lib/translation-host/providers"

  /// The search path for this process and environment: the installation's
  /// providers are those of `Installation.current`.
  package static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> SearchPath {
    standard(environment: environment, installationProviders: Installation.current(environment: environment)?.providers)
  }

  /// The search path with `installationProviders` as the installation's
  /// folder (nil: none; `installationPlaceholder`: left to the service).
  package static func standard(environment: [String: String], installationProviders: String?) -> SearchPath {
    var folders: [Folder] = []
    if let custom = environment["TRANSLATION_HOST_PROVIDER_PATH"] {
      folders += custom.split(separator: ":").map { Folder(path: String($0), origin: .environment) }
    }
    folders.append(Folder(path: XDGFolders(environment: environment).data + "/providers", origin: .user))
    if let installationProviders { folders.append(Folder(path: installationProviders, origin: .prefix)) }
    folders += ["/usr/local/lib/translation-host/providers", "/usr/lib/translation-host/providers"].map {
      Folder(path: $0, origin: .system)
    }
    var seen: Set<String> = []
    return SearchPath(folders: folders.filter { seen.insert(URL(fileURLWithPath: $0.path).standardizedFileURL.path).inserted })
  }
}
