import TranslationHostCore

/// The options `run` and `translate` share: which provider, and its deadline.
struct ProviderOptions {
  static let specs: [OptionSpec] = [
    .option("provider", "id|path", help: "Bundle id, name or path of the provider (default: the first installed)."),
    .option("timeout", "seconds", help: "Deadline for each request to the provider (default: \(Int(defaultTimeout)))."),
  ]
  static let defaultTimeout = 30.0

  var provider: String?
  var timeout: Double

  init(_ arguments: ParsedArguments, command: any Command.Type) throws(CommandError) {
    provider = arguments.value("provider")
    guard let timeout = arguments.value("timeout").map({ Double($0) }) ?? Self.defaultTimeout,
      timeout.isFinite, timeout > 0
    else {
      throw .usage("'--timeout' needs a positive number of seconds, not '\(arguments.value("timeout") ?? "")'", of: command)
    }
    self.timeout = timeout
  }

  /// Finds the provider, refuses one that is not a translation app, reports
  /// manifest warnings, and starts its runner.
  func launch(output: Output) throws -> RunnerClient {
    let locator = ProviderLocator.standard()
    let bundle: ProviderBundle
    if let provider {
      bundle = try locator.bundle(named: provider)
    } else {
      bundle = try locator.fallbackBundle()
      output.note("no --provider given; using '\(bundle.identifier)', the first installed provider")
    }
    for warning in bundle.warnings { output.note("warning: \(warning)") }
    guard bundle.isTranslationApp else {
      throw CommandError(
        "provider '\(bundle.identifier)' is not a translation app: its entitlements lack '\(ManifestKey.translationApp)' = true",
        exitCode: .providerUnavailable)
    }
    return try RunnerClient.launch(bundle: bundle, runnerPath: try RunnerLocator.locate(), timeout: timeout)
  }
}
