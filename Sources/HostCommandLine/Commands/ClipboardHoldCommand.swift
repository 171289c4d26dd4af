import FoundationEssentials
import System

/// `translation-host clipboard-hold`, started by the desktop popover, not
/// by people: keeps the text on stdin on the clipboard until another
/// application copies something (an X11 clipboard is gone when its owner
/// exits). Not listed in `--help`.
struct ClipboardHoldCommand: Command {
  static let name = "clipboard-hold"
  static let abstract = "Keep the text on stdin on the clipboard until something else is copied (internal)."
  static let usage = ""
  static let options: [OptionSpec] = []

  init(_ arguments: ParsedArguments) throws(CommandError) {
    guard arguments.positionals.isEmpty else {
      throw .usage("unexpected argument '\(arguments.positionals[0])'; the text comes on stdin", of: Self.self)
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let desktop = try DesktopHandOff.frontEnd()  // before stdin is read
    let input = try InputText.read(argument: nil, command: Self.self, optionName: "stdin")
    try desktop.holdClipboard(
      input.text + (input.hadTrailingNewline ? "\n" : ""), environment: context.environment)
    return .success
  }

  /// Starts a holder for `text` in a session of its own, and does not wait for
  /// it. The holder is this program: `translation-host-desktop`, which the
  /// desktop popover runs in.
  static func start(holding text: String, environment: [String: String]) {
    guard let executable = Syscalls.executablePath() else { return }
    do throws(Errno) {
      let (parent, child) = try Syscalls.socketPair()
      defer { Syscalls.close(parent) }
      let pid = try Syscalls.spawn(
        executable, arguments: [name], environment: environment.map { "\($0)=\($1)" },
        actions: [
          .duplicate(child, as: .standardInput), .nullDevice(as: .standardOutput), .nullDevice(as: .standardError),
        ],
        newSession: true)
      Syscalls.close(child)
      _ = pid
      try Syscalls.writeAll(parent, text)
    } catch {
      // The text stays on the clipboard until this process exits.
    }
  }
}
