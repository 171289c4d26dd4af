import Core
import FoundationEssentials
import System

/// Finds the `translation-provider-runner` executable of the installation in
/// use (`Installation`), so a build tree and any install prefix work without
/// configuration, and an app finds translation-host's runner wherever the app is.
package enum RunnerLocator {
  package static let executableName = "translation-provider-runner"

  /// The places searched, in order: `$TRANSLATION_HOST_RUNNER`, then the
  /// installation's (`Installation.current`: the running program's own for
  /// translation-host's programs, the one `PATH` finds for an app), then the
  /// system prefixes `/usr/local` and `/usr`. Never the folder of an app.
  package static func candidates(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
    var paths: [String] = []
    if let explicit = environment["TRANSLATION_HOST_RUNNER"], !explicit.isEmpty { paths.append(explicit) }
    paths += Installation.current(environment: environment)?.runnerCandidates ?? []
    paths += ["/usr/local", "/usr"].map { $0 + "/libexec/translation-host/" + executableName }
    var seen: Set<String> = []
    return paths.filter { seen.insert($0).inserted }
  }

  /// The first executable candidate.
  package static func locate(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(RunnerError) -> String {
    let paths = candidates(environment: environment)
    guard let found = paths.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
      throw .runnerNotFound(searched: paths)
    }
    return found
  }
}
