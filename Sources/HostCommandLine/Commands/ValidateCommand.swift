import Core
import Service

/// `translation-host validate`: checks a bundle for its author.
struct ValidateCommand: Command {
  static let name = "validate"
  static let abstract = "Check a provider bundle before users see it."
  static let usage = "<bundle-dir> [--timeout <seconds>]"
  static let discussion = """
    Checks the manifest and entitlements, then loads the shared object in a
    runner (entry symbol, ABI version, capabilities), renders the scene once
    on a sample text, and tries the translate capability if there is one.
    Each line is 'ok', 'note' or 'FAIL' with what to do. Exits 0 only when
    nothing failed.
    """
  static let arguments = [(name: "<bundle-dir>", help: "The <Name>.translationprovider folder.")]
  static let options: [OptionSpec] = [ProviderOptions.timeoutSpec]

  var path: String
  var timeout: Duration

  init(_ arguments: ParsedArguments) throws(CommandError) {
    path = try arguments.single("bundle folder", of: Self.self)
    timeout = try ProviderOptions.timeout(arguments, command: Self.self)
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let output = context.output
    let checks = try Self.validate(path, timeout: timeout)
    try output.data(checks.map { "\($0.outcome.rawValue.padding(6))\($0.message)\n" }.joined())
    return checks.contains { $0.outcome == .failed } ? .providerUnavailable : .success
  }

  /// Validates the bundle at `path` in a runner.
  static func validate(_ path: String, timeout: Duration) throws -> [ValidationCheck] {
    ProviderValidator(runnerPath: try RunnerLocator.locate(), timeout: timeout).validate(bundleAt: SearchPath.normalized(path))
  }
}
