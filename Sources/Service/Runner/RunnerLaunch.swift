import Core
import FoundationEssentials
import RunnerProtocol
import System

/// What starting a runner for a bundle as every front end does takes: the
/// bundle's policy, the runner next to the host, the user's settings, all
/// as `environment` says (the process's own, or the one a caller looks up
/// the service with, so that both paths see the same folders).
package struct RunnerLaunch: Sendable {
  package var policy: SandboxPolicy
  package var runnerPath: String
  package var settings: String

  /// `settingOverrides` replace the user's settings for this runner alone
  /// (`translate --raw`), where the bundle declares them.
  package init(
    bundle: ProviderBundle, environment: [String: String] = ProcessInfo.processInfo.environment,
    settingOverrides: [String: SettingValue] = [:]
  ) throws(HostError) {
    do {
      policy = try SandboxPolicy.forBundle(bundle, environment: environment)
      runnerPath = try RunnerLocator.locate(environment: environment)
      settings = try SettingsStore.standard(environment: environment).effectiveJSON(
        for: bundle, overrides: settingOverrides)
    } catch {
      throw HostError(error)
    }
  }
}
