import Core
import FoundationEssentials
import System

/// Where a provider session comes from, for the CLI and the client library
/// alike: the resident service when it is running and sees what this
/// process sees, and otherwise a sandboxed runner started here (the direct
/// path). Both give the same answers; the service's runners are warm.
///
/// With `usesService`, asks `ServiceClient.running(environment:)` first;
/// without, or when no service listens or it cannot serve this process (it
/// sees other folders, speaks another protocol version, refused: known
/// from the first reply, and told through `notice` unless it is only the
/// folders), resolves the provider here and starts its runner, on the
/// calling thread, which must outlive the runner (its parent-death signal
/// follows the thread). `notice` receives what resolving has to say (how
/// the default was chosen, manifest warnings).
/// Both throw what resolving the provider, starting its runner or the
/// service reported, as a `HostError`.
package enum ProviderLaunch {
  /// A session for headless requests with `provider` (a bundle id, name or
  /// path; nil: the default): through the service, one round trip each.
  /// `settingOverrides` (the CLI's `--raw`) replace the user's settings for
  /// this session's runner, which is then always started here: the
  /// service's runners have the user's settings.
  package static func translator(
    provider: String?, timeout: Duration, usesService: Bool,
    environment: [String: String] = ProcessInfo.processInfo.environment, settingOverrides: [String: SettingValue] = [:],
    notice: @escaping (String) -> Void
  ) throws(HostError) -> any TranslatorSession {
    guard settingOverrides.isEmpty else {
      return try direct(
        provider: provider, timeout: timeout, environment: environment, settingOverrides: settingOverrides, notice: notice)
    }
    guard usesService, let service = service(for: provider, environment: environment, waiting: .zero)
    else { return try direct(provider: provider, timeout: timeout, environment: environment, notice: notice) }
    return ServiceTranslator(
      client: service, provider: provider, timeout: timeout, notice: notice,
      reconnect: { Self.service(for: provider, environment: environment, waiting: ServiceTranslator.restartPatience) },
      direct: { () throws(HostError) in
        try direct(provider: provider, timeout: timeout, environment: environment, notice: notice)
      })
  }

  /// A session that drives `provider`'s scene: through the service, a
  /// runner of its pool pinned to the session.
  package static func scene(
    provider: String?, timeout: Duration, usesService: Bool,
    environment: [String: String] = ProcessInfo.processInfo.environment, notice: (String) -> Void
  ) throws(HostError) -> any SceneSession {
    if usesService, let service = service(for: provider, environment: environment, waiting: .zero) {
      do {
        return try service.openSceneSession(provider: provider, timeout: timeout, notice: notice)
      } catch .unavailable(let reason) {
        ServiceError.unavailable(reason).directPathNotice.map(notice)
      } catch .connectionLost {
        // The service went away before a scene existed (it is stopping or
        // restarting): nothing is lost, and the direct path serves the scene.
      } catch {
        throw error.hostError
      }
    }
    return try direct(provider: provider, timeout: timeout, environment: environment, notice: notice)
  }

  /// A connection to the running service, if one listens and would run `provider`.
  private static func service(for provider: String?, environment: [String: String], waiting: Duration) -> ServiceClient? {
    guard servesReference(provider, environment: environment) else { return nil }
    return ServiceClient.running(environment: environment, waiting: waiting)
  }

  /// A runner started here for `provider`, as `environment` finds it.
  private static func direct(
    provider: String?, timeout: Duration, environment: [String: String], settingOverrides: [String: SettingValue] = [:],
    notice: (String) -> Void
  ) throws(HostError) -> RunnerClient {
    let bundle: ProviderBundle
    do {
      bundle = try ProviderResolution.bundle(named: provider, environment: environment, notice: notice)
    } catch {
      throw HostError(error)
    }
    return try RunnerClient.launch(
      bundle: bundle, timeout: timeout, environment: environment, settingOverrides: settingOverrides)
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
