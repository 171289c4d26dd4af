import Core

/// What decides which provider runs and how: the search folders, the
/// configuration folder (defaults, settings) and the host's own variables.
/// A client uses the service only when the service sees the same context,
/// so that the answer is the one the direct path would give.
package enum ServiceContext {
  /// The context of a process with `environment`, as one comparable string.
  package static func current(environment: [String: String]) -> String {
    let folders = SearchPath.standard(environment: environment).folders.map(\.path)
    let variables = environment.filter { $0.key.hasPrefix("TRANSLATION_HOST_") && $0.key != "TRANSLATION_HOST_BUILD" }
      .sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    return (["search=" + folders.joined(separator: ":"), "config=" + XDGFolders(environment: environment).config] + variables)
      .joined(separator: "\n")
  }
}
