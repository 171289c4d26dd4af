import CHostProcess
import FoundationEssentials
import Presentation
import System

/// The root of `translation-host`: picks the subcommand, runs it, and turns
/// errors into `Error: …` lines and exit codes.
package enum CommandLineTool {
  /// The whole process of `translation-host` (and of
  /// `translation-host-desktop`, which registers its desktop first): sets
  /// the process up, runs the command of `CommandLine.arguments`, exits with its status.
  package static func main() -> Never {
    // Descriptors 0–2 must be open, or the first socket the host creates
    // would become "stdout" and a replacement would be written into it.
    // (`open` takes the lowest free descriptor, so each lands where it is missing.)
    for fd in [FileDescriptor.standardInput, .standardOutput, .standardError] where !Syscalls.isOpen(fd) {
      _ = try? Syscalls.open("/dev/null", fd == .standardInput ? .readOnly : .writeOnly, closeOnExec: false)
    }
    Signal.brokenPipe.ignore()
    // Nothing of the same user may attach to the host or write into its
    // memory: a provider runs as the user too (Documentation/Security.md).
    if tp_host_forbid_attaching() != 0 {
      let error = Errno.current
      Output().note("prctl(PR_SET_DUMPABLE): \(error)")
      Syscalls.exit(71)
    }
    let arguments = Array(CommandLine.arguments.dropFirst())
    // A provider loaded into this process gets the main thread, as in a
    // runner: its main queue and main actor run there.
    if arguments.contains("--in-process") {
      InProcessRunner.serveOnMainThread { CommandLineTool.run(arguments).rawValue }
    }
    Syscalls.exit(CommandLineTool.run(arguments).rawValue)
  }

  static let commands: [any Command.Type] = [
    RunCommand.self, TranslateCommand.self, DetectCommand.self, LanguagesCommand.self, ListCommand.self, InfoCommand.self,
    DefaultCommand.self,
    SetDefaultCommand.self, ConfigCommand.self, ValidateCommand.self, InstallCommand.self, UninstallCommand.self,
    SignCommand.self, VerifyCommand.self,
    NewProviderCommand.self, ServeCommand.self, ShortcutCommand.self, AgentCommand.self,
  ]
  /// Commands the host starts itself, left out of `--help`.
  static let internalCommands: [any Command.Type] = [ClipboardHoldCommand.self]

  static let help = """
    OVERVIEW: The default translation provider system for Linux.

    Runs translation providers (bundles with an Info.plist, an entitlements file
    and a shared object) in their own processes, as iOS runs the default
    translation app's extension.

    USAGE: translation-host <subcommand> [options]

    SUBCOMMANDS:
    \(commands.map { "  \($0.name.padding(24))\($0.abstract)" }.joined(separator: "\n"))

      See 'translation-host <subcommand> --help' for details.

    \(ExitCode.table)

    """

  static func run(_ arguments: [String], in context: CommandContext = .process) -> ExitCode {
    let output = context.output
    guard let first = arguments.first, first != "--help", first != "-h", first != "help" else {
      let command = arguments.count > 1 && arguments[0] == "help" ? commands.first { $0.name == arguments[1] } : nil
      do { try output.data(command?.help ?? help) } catch { return error.exitCode }
      return .success
    }
    guard let command = (commands + internalCommands).first(where: { $0.name == first }) else {
      output.diagnostic("Error: unknown subcommand '\(first)'\n\(usageHint(nil))")
      return .usage
    }
    let rest = Array(arguments.dropFirst())
    var context = context
    if command.name == RunCommand.name && Output.hasNoTerminal
      && GraphicalSession.isAvailable(environment: context.environment)
    {
      context.output.notifiesDesktop = true
    }
    do {
      let parsed = try ParsedArguments(rest, options: command.options, command: command)
      if parsed.has("help") {
        try context.output.data(command.help)
        return .success
      }
      return try command.init(parsed).run(in: context)
    } catch {
      let failure = CommandError(error)
      context.output.error(failure.message)
      if failure.exitCode == .usage { context.output.diagnostic(usageHint(failure.usageOf ?? command)) }
      return failure.exitCode
    }
  }

  private static func usageHint(_ command: (any Command.Type)?) -> String {
    guard let command else { return "  See 'translation-host --help' for the subcommands.\n" }
    return
      "Usage: translation-host \(command.name) \(command.usage)\n  See 'translation-host \(command.name) --help' for more information.\n"
  }
}
