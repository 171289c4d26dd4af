import Foundation

/// Where a provider session comes from, for the CLI and the client library
/// alike: the resident service when it is running and sees what this
/// process sees, and otherwise a sandboxed runner started here (the direct
/// path). Both give the same answers; the service's runners are warm.
package enum ProviderLaunch {
  /// A session with `provider` (a bundle id, name or path; nil: the default).
  ///
  /// With `usesService`, asks `ServiceClient.running(environment:notice:)` first;
  /// without, or when no service answers, resolves the provider here and
  /// starts its runner, on the calling thread, which must outlive the runner
  /// (its parent-death signal follows the thread). `notice` receives what
  /// resolving has to say (how the default was chosen, manifest warnings).
  /// - Throws: what `ProviderResolution` throws when the provider cannot be
  ///   used, `RunnerError` when its runner cannot start, and through the
  ///   service the same, or `ServiceError` when the service fails.
  package static func session(
    provider: String?, timeout: Double, usesService: Bool,
    environment: [String: String] = ProcessInfo.processInfo.environment, notice: (String) -> Void
  ) throws -> any ProviderSession {
    if usesService, servesReference(provider, environment: environment),
      let service = ServiceClient.running(environment: environment, notice: notice)
    {
      return try service.openSession(provider: provider, timeout: timeout, notice: notice)
    }
    let bundle = try ProviderResolution.bundle(named: provider, notice: notice)
    return try RunnerClient.launch(bundle: bundle, timeout: timeout)
  }

  /// Whether the service would run `provider`: it runs only bundle paths its
  /// search path lists (the same as this process's, or it is not used), so a
  /// bundle elsewhere, one being developed, say, takes the direct path.
  private static func servesReference(_ provider: String?, environment: [String: String]) -> Bool {
    guard let provider, ProviderResolution.isPath(provider) else { return true }
    let path = provider.hasPrefix("/") ? provider : FileManager.default.currentDirectoryPath + "/" + provider
    return ProviderResolution.listed(path, in: ProviderRegistry.standard(environment: environment).scan()) != nil
  }
}
