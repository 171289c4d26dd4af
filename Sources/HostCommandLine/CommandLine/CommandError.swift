import System

/// A failure of a command, with the message shown after `Error: ` and the exit code.
struct CommandError: Error {
  var message: String
  var exitCode: ExitCode
  /// For usage errors: the command whose `--help` to point at.
  var usageOf: (any Command.Type)?

  init(_ message: String, exitCode: ExitCode, usageOf: (any Command.Type)? = nil) {
    self.message = message
    self.exitCode = exitCode
    self.usageOf = usageOf
  }

  /// A mistake on the command line.
  static func usage(_ message: String, of command: any Command.Type) -> CommandError {
    CommandError(message, exitCode: .usage, usageOf: command)
  }

  /// The message and exit code for any error a command may throw: its
  /// `HostError`, with the flag that would help added to the message.
  init(_ error: any Error) {
    if let error = error as? CommandError {
      self = error
      return
    }
    let failure = HostError(error)
    self.init(failure.message + Self.hint(failure.remedy), exitCode: Self.exitCode(for: failure.kind))
  }

  /// The exit code of each kind of failure (the table in `ExitCode`).
  static func exitCode(for kind: HostError.Kind) -> ExitCode {
    switch kind {
    case .failure, .serviceFailed: .failure
    case .usage: .usage
    case .invalidInput, .nothingToTranslate: .invalidInput
    case .unsupportedSourceLanguage, .unsupportedTargetLanguage, .unsupportedLanguagePairing, .unableToIdentifyLanguage,
      .notInstalled:
      .unsupportedLanguage
    case .noSuchControl: .noSuchControl
    case .providerUnavailable: .providerUnavailable
    case .providerFailed: .providerFailed
    case .deadlineExceeded: .deadlineExceeded
    case .interrupted(let signal): .interrupted(by: signal)
    }
  }

  /// The command-line words for what would help.
  private static func hint(_ remedy: HostError.Remedy?) -> String {
    switch remedy {
    case nil: ""
    case .longerDeadline?: "; raise --timeout if it is just slow"
    case .nameSourceLanguage(let suggested)?: "; pass --from <tag>, such as '--from \(suggested ?? "en")'"
    case .bypassService?: ", or pass --no-service"
    }
  }
}
