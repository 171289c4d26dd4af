import FoundationEssentials
import System

/// `translation-host agent`: the resident desktop agent, which keeps GTK
/// warm so that the shortcut shows the popover without starting GTK.
struct AgentCommand: Command {
  static let name = "agent"
  static let abstract = "Keep the desktop popover ready, so that the shortcut shows it at once."
  static let usage = "[--idle-exit <seconds>] [--global-shortcut <accelerator>] [--gapplication-service]"
  static let discussion = """
    Runs org.translationhost.Desktop, a GApplication on the session bus that
    keeps GTK initialised, the popover's fonts and style loaded, and shows
    the popover when asked, as 'run --desktop' would, without starting a
    process. One runs per session: a second 'agent' exits at once. The
    session bus starts it on the first request when its activation file is
    installed (make install, or 'shortcut install'), and it exits after
    --idle-exit seconds without a request (default \(Int(defaultIdleExit.inSeconds)); 0: never;
    TRANSLATION_HOST_AGENT_IDLE_EXIT sets it for an agent the bus starts).
    It holds no provider: each popover's scene comes from the resident
    service when it runs, else from a runner started for that popover.

    --global-shortcut binds the key through the desktop portal's
    GlobalShortcuts (xdg-desktop-portal, where the desktop's back end
    implements it: KDE Plasma; not GNOME 43 nor wlroots compositors): the
    desktop may ask you to confirm the key or choose another. A press shows
    the selection's popover, as translate-selection does. The binding lasts
    as long as the agent, so an agent holding one does not exit when idle;
    start it with the session (an autostart entry running 'translation-host
    agent --global-shortcut "<Super><Shift>t"'). Where no portal binds it,
    the agent says why and runs without it; bind the key in the desktop's
    own settings then ('translation-host shortcut install').

    Requests are GApplication actions (org.gtk.Actions):
      gapplication action org.translationhost.Desktop translate-selection
          the selection in any application, replaced by its translation
          (run --selection --replace); what the shortcut sends
      gapplication action org.translationhost.Desktop run "['--text', 'Hello']"
          run with these options: --text or --selection, --replace,
          --provider, --from, --to, --anchor, --arrow-edge, --parent-window, --timeout
      gapplication action org.translationhost.Desktop dismiss
          close the popover being shown, as Esc does
      gapplication action org.translationhost.Desktop quit
    What a popover has to say goes to the agent's stderr.
    """
  static let options: [OptionSpec] = [
    .option("idle-exit", "seconds", help: "Exit after this long without a request (0: never)."),
    .option(
      "global-shortcut", "accelerator",
      help: "Bind this key (GTK's syntax, e.g. <Super><Shift>t) through the GlobalShortcuts portal and hold it."),
    .flag("gapplication-service", help: "Started by the session bus (its activation file passes it)."),
  ]
  static let defaultIdleExit = Duration.seconds(900)
  static let idleExitVariable = "TRANSLATION_HOST_AGENT_IDLE_EXIT"

  var idleExit: Duration?
  var globalShortcut: String?

  init(_ arguments: ParsedArguments) throws(CommandError) {
    guard arguments.positionals.isEmpty else {
      throw .usage("unexpected argument '\(arguments.positionals[0])'", of: Self.self)
    }
    idleExit = try Self.idleExit(
      arguments.value("idle-exit"), variable: Syscalls.environmentVariable(Self.idleExitVariable))
    globalShortcut = arguments.value("global-shortcut")
    if let key = globalShortcut, key.isEmpty || key.utf8.count > 256 || key.unicodeScalars.contains(where: { $0.value < 0x20 }) {
      throw .usage("'--global-shortcut' needs a key in GTK's syntax, such as '<Super><Shift>t'", of: Self.self)
    }
  }

  /// The idle time from `--idle-exit` (`option`), else from the environment (`variable`); nil: never.
  static func idleExit(_ option: String?, variable: String?) throws(CommandError) -> Duration? {
    guard let text = option ?? variable else { return defaultIdleExit }
    let source = option != nil ? "'--idle-exit'" : idleExitVariable
    guard let seconds = Double(text), seconds >= 0, seconds <= ProviderOptions.longestTimeout.inSeconds else {
      throw .usage(
        "\(source) needs a number of seconds from 0 (never) to \(ProviderOptions.longestTimeout.secondsText), not '\(text)'",
        of: Self.self)
    }
    return seconds == 0 ? nil : .seconds(saturating: seconds)
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let output = context.output
    let desktop = try DesktopHandOff.frontEnd()
    // Requests carry their text; what `run` would write to stdout (a
    // replacement, pasted already) is nobody's here.
    for fd in [FileDescriptor.standardInput, .standardOutput] {
      do throws(Errno) { try Syscalls.redirectToNullDevice(fd) } catch {
        throw CommandError(
          "cannot point \(fd == .standardInput ? "stdin" : "stdout") at /dev/null: \(error)", exitCode: .ioError)
      }
    }
    let started = try desktop.runAgent(
      idleExit: idleExit, globalShortcut: globalShortcut, environment: context.environment, note: output.note
    ) { arguments, standardOutput, standardError in
      var runContext = context
      // A caller of the agent's socket (Present) reads them; a shortcut's popover has nobody to read them.
      if let standardOutput, let standardError {
        runContext.output.standardOutput = standardOutput
        runContext.output.standardError = standardError
      }
      let status = CommandLineTool.run([RunCommand.name] + arguments, in: runContext)
      // From a shortcut nobody sees an exit status: the agent's log keeps it.
      if status != .success && standardOutput == nil {
        output.note("a popover ended with exit status \(status.rawValue)")
      }
      return status.rawValue
    }
    if !started { output.note("an agent of this session is running already (org.translationhost.Desktop)") }
    return .success
  }
}
