import FoundationEssentials
import Presentation
import System

/// `translation-host clipboard-hold`, started by the desktop popover, not
/// by people: keeps the clipboard contents on stdin (`ClipboardContents`,
/// every format) on the clipboard until another application copies
/// something (an X11 clipboard is gone when its owner exits). Not listed in `--help`.
struct ClipboardHoldCommand: Command {
  static let name = "clipboard-hold"
  static let abstract = "Keep the clipboard contents on stdin on the clipboard until something else is copied (internal)."
  static let usage = ""
  static let options: [OptionSpec] = [
    .option(
      "unless-copied-since", "pid",
      help: "Take the clipboard only while process <pid> owns it, or no one does (never over a newer copy).")
  ]

  /// The process whose clipboard this holder takes over: if another owns
  /// it by the time the holder is ready, something newer was copied, and
  /// the holder leaves it alone.
  let handingOver: Int32?

  init(_ arguments: ParsedArguments) throws(CommandError) {
    guard arguments.positionals.isEmpty else {
      throw .usage("unexpected argument '\(arguments.positionals[0])'; the text comes on stdin", of: Self.self)
    }
    if let value = arguments.value("unless-copied-since") {
      guard let pid = Int32(value), pid > 0 else {
        throw .usage("--unless-copied-since takes a process id, not '\(value)'", of: Self.self)
      }
      handingOver = pid
    } else {
      handingOver = nil
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let desktop = try DesktopHandOff.frontEnd()  // before stdin is read
    let limit = ClipboardContents.byteLimit + ClipboardContents.formatLimit * 300
    let bytes: [UInt8]
    do { bytes = try Syscalls.readAll(.standardInput, limit: limit) } catch {
      throw CommandError("cannot read the clipboard contents on stdin: \(error)", exitCode: .failure)
    }
    guard let contents = ClipboardContents(decoding: bytes) else {
      throw CommandError(
        "the clipboard contents on stdin are malformed or over \(limit) bytes: this command is started by `run`, not by people",
        exitCode: .failure)
    }
    try desktop.holdClipboard(contents, unlessCopiedSince: handingOver, environment: context.environment)
    return .success
  }

  /// Starts a holder for `contents` in a session of its own, and does not wait for
  /// it. The holder is this program: `translation-host-desktop`, which the
  /// desktop popover runs in.
  static func start(holding contents: ClipboardContents, environment: [String: String]) {
    guard let executable = Syscalls.executablePath() else { return }
    do throws(Errno) {
      let (parent, child) = try Syscalls.socketPair()
      defer { Syscalls.close(parent) }
      let pid = try Syscalls.spawn(
        executable, arguments: [name, "--unless-copied-since", String(Syscalls.processID)],
        environment: environment.map { "\($0)=\($1)" },
        actions: [
          .duplicate(child, as: .standardInput), .nullDevice(as: .standardOutput), .nullDevice(as: .standardError),
        ],
        newSession: true)
      Syscalls.close(child)
      _ = pid
      try Syscalls.writeAll(parent, contents.encoded)
    } catch {
      // The text stays on the clipboard until this process exits.
    }
  }
}
