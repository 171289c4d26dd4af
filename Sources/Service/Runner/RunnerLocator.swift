import FoundationEssentials
import System

/// Finds the `translation-provider-runner` executable relative to the running
/// host, so a build tree and any install prefix work without configuration.
package enum RunnerLocator {
  package static let executableName = "translation-provider-runner"

  /// The places searched, in order: `$TRANSLATION_HOST_RUNNER`, then
  /// `<prefix>/libexec/translation-host/`, then the host's own folder, then
  /// the system prefixes `/usr/local` and `/usr` (for apps that use the
  /// client library, which are installed anywhere).
  package static func candidates(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
    var paths: [String] = []
    if let explicit = environment["TRANSLATION_HOST_RUNNER"], !explicit.isEmpty { paths.append(explicit) }
    if let executable = Syscalls.executablePath() {
      let folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
      paths.append(folder.deletingLastPathComponent().path + "/libexec/translation-host/" + executableName)
      paths.append(folder.path + "/" + executableName)
    }
    paths += ["/usr/local", "/usr"].map { $0 + "/libexec/translation-host/" + executableName }
    return paths
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
