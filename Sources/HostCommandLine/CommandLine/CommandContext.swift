import FoundationEssentials

/// What a command may use of the world: the environment it reads (never
/// `ProcessInfo` itself), where it writes, and how it starts a provider's
/// session. `CommandLineTool.main` makes the process's own; tests make
/// theirs, with a launcher that starts no runner.
struct CommandContext {
  var environment: [String: String]
  var output: Output
  var launcher: any SessionLauncher

  /// This process's environment, stdout and stderr, and providers started
  /// as `ProviderLaunch` starts them.
  static var process: CommandContext {
    CommandContext(environment: ProcessInfo.processInfo.environment, output: Output(), launcher: ProviderSessionLauncher())
  }
}
