import Core
import Service
import System

/// The options the provider commands share: which provider, its deadline,
/// and whether to go through the resident service.
struct ProviderOptions {
  static let specs: [OptionSpec] = [
    .option("provider", "id|path", help: "Bundle id, name or path of the provider (default: the default provider)."),
    timeoutSpec,
    .flag("in-process", help: "Debugging only, unsafe: load the provider into this process, without sandbox."),
    noServiceSpec,
  ]
  static let noServiceSpec = OptionSpec.flag(
    "no-service", help: "Start the provider here even if the resident service (translation-host serve) is running.")
  static let timeoutSpec = OptionSpec.option(
    "timeout", "seconds", help: "Deadline for each request to the provider (default: \(defaultTimeout.secondsText)).")
  static let defaultTimeout = RequestDeadline.standard
  /// The longest `--timeout`: a day; a deadline is there to end a provider that hangs.
  static let longestTimeout = Duration.seconds(86_400)

  var provider: String?
  var timeout: Duration
  var inProcess: Bool
  var usesService: Bool
  /// Settings that replace the user's for this command (`translate --raw`).
  var settingOverrides: [String: SettingValue] = [:]

  init(_ arguments: ParsedArguments, command: any Command.Type) throws(CommandError) {
    provider = arguments.value("provider")
    timeout = try Self.timeout(arguments, command: command)
    inProcess = arguments.has("in-process")
    usesService = !arguments.has("no-service")
  }

  /// The `--timeout` value, checked.
  static func timeout(_ arguments: ParsedArguments, command: any Command.Type) throws(CommandError) -> Duration {
    guard let text = arguments.value("timeout") else { return defaultTimeout }
    guard let seconds = Double(text), seconds > 0, seconds <= longestTimeout.inSeconds else {
      throw .usage(
        "'--timeout' needs a positive number of seconds up to \(longestTimeout.secondsText), not '\(text)'",
        of: command)
    }
    return .seconds(saturating: seconds)
  }

  /// Finds the provider (the named one, or the default), re-reads its bundle,
  /// refuses it unless it may run, reports manifest warnings, and starts its
  /// runner (or, with `--in-process`, loads it here). When the resident
  /// service is running and sees what this process sees, it does all that
  /// with a warm runner instead (unless `--no-service` or `--in-process`).
  func launchScene(in context: CommandContext) throws -> any SceneSession {
    guard inProcess else {
      return try context.launcher.scene(
        provider: provider, timeout: timeout, usesService: usesService, environment: context.environment,
        notice: context.output.note)
    }
    return try launchInProcess(output: context.output)
  }

  /// As `launchScene`, for headless requests only (`translate`, `languages`):
  /// through the service, each is one round trip.
  func launchTranslator(in context: CommandContext) throws -> any TranslatorSession {
    guard inProcess else {
      return try context.launcher.translator(
        provider: provider, timeout: timeout, usesService: usesService, settingOverrides: settingOverrides,
        environment: context.environment, notice: context.output.note)
    }
    return try launchInProcess(output: context.output)
  }

  private func launchInProcess(output: Output) throws -> RunnerClient {
    let bundle = try ProviderResolution.bundle(named: provider, notice: output.note)
    output.note("warning: --in-process: the provider runs inside this process, without sandbox")
    return try InProcessRunner.launch(bundle: bundle, timeout: timeout, settingOverrides: settingOverrides)
  }
}
