import Core
import Service

/// How a command opens a provider's session (`ProviderOptions`): through the
/// resident service or with a runner of its own (`ProviderSessionLauncher`),
/// or, in tests, a stand-in that starts nothing.
protocol SessionLauncher {
  /// A session whose scene a popover or `--press` drives.
  func scene(
    provider: String?, timeout: Duration, usesService: Bool, environment: [String: String], notice: (String) -> Void
  ) throws -> any SceneSession

  /// A session for headless requests (`translate`, `languages`).
  func translator(
    provider: String?, timeout: Duration, usesService: Bool, settingOverrides: [String: SettingValue],
    environment: [String: String], notice: @escaping (String) -> Void
  ) throws -> any TranslatorSession
}

/// Sessions as every front end opens them (`ProviderLaunch`).
struct ProviderSessionLauncher: SessionLauncher {
  func scene(
    provider: String?, timeout: Duration, usesService: Bool, environment: [String: String], notice: (String) -> Void
  ) throws -> any SceneSession {
    try ProviderLaunch.scene(
      provider: provider, timeout: timeout, usesService: usesService, environment: environment, notice: notice)
  }

  func translator(
    provider: String?, timeout: Duration, usesService: Bool, settingOverrides: [String: SettingValue],
    environment: [String: String], notice: @escaping (String) -> Void
  ) throws -> any TranslatorSession {
    try ProviderLaunch.translator(
      provider: provider, timeout: timeout, usesService: usesService, environment: environment,
      settingOverrides: settingOverrides, notice: notice)
  }
}
