import Core

/// What decides which provider runs and how: the search folders, the
/// configuration folder (defaults, settings) and the host's own variables.
/// A client uses the service only when the service sees the same context,
/// so that the answer is the one the direct path would give.
package enum ServiceContext {
  /// The context of a process with `environment`, as one comparable string.
  /// An app (not one of translation-host's own programs) leaves the
  /// installation to the service: its context names a placeholder where the
  /// installation's providers would be, and the service serves it when the
  /// rest matches (`deferringInstallation`).
  package static func current(environment: [String: String]) -> String {
    Installation.isOwnProgram ? context(environment: environment) : deferringInstallation(environment: environment)
  }

  /// The context with the installation's providers left to the service.
  package static func deferringInstallation(environment: [String: String]) -> String {
    context(environment: environment, installationProviders: SearchPath.installationPlaceholder)
  }

  private static func context(environment: [String: String], installationProviders: String?? = nil) -> String {
    let folders =
      switch installationProviders {
      case .some(let folder): SearchPath.standard(environment: environment, installationProviders: folder)
      case .none: SearchPath.standard(environment: environment)
      }
    let variables = environment.filter { $0.key.hasPrefix("TRANSLATION_HOST_") && $0.key != "TRANSLATION_HOST_BUILD" }
      .sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    return
      (["search=" + folders.folders.map(\.path).joined(separator: ":"), "config=" + XDGFolders(environment: environment).config]
      + variables)
      .joined(separator: "\n")
  }
}
