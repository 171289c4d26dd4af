import TerminalPopover
import TranslationHostCore

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

  /// The message and exit code for any error a command may throw.
  init(_ error: any Error) {
    switch error {
    case let error as CommandError:
      self = error
    case let error as RegistryError:
      self.init(error.description, exitCode: .providerUnavailable)
    case let error as ManifestError:
      self.init(error.description, exitCode: .providerUnavailable)
    case let error as DefaultsError:
      self.init(error.description, exitCode: .failure)
    case let error as SettingsError:
      switch error {
      case .unknownKey, .wrongType: self.init(error.description, exitCode: .usage)
      case .unreadable, .unwritable: self.init(error.description, exitCode: .failure)
      }
    case let error as LanguageError:
      self.init(error.description, exitCode: .unsupportedLanguage)
    case let error as SandboxError:
      self.init(error.description, exitCode: .usage)
    case let error as SceneError:
      if case .noScene = error {
        self.init(error.description, exitCode: .usage)
      } else {
        self.init(error.description, exitCode: .noSuchControl)
      }
    case let error as RunnerError:
      self.init(error.description, exitCode: Self.exitCode(for: error))
    case let error as PopoverError:
      if case .interrupted(let signal) = error {
        self.init(error.description, exitCode: .interrupted(by: signal))
      } else {
        self.init(error.description, exitCode: .failure)
      }
    case let error as ServiceError:
      self.init(error.description, exitCode: Self.exitCode(for: error))
    default:
      self.init("\(error)", exitCode: .failure)
    }
  }

  private static func exitCode(for error: RunnerError) -> ExitCode {
    switch error {
    case .runnerNotFound, .spawnFailed: .failure
    case .loadFailed: .providerUnavailable
    case .deadlineExceeded: .deadlineExceeded
    case .ended, .protocolViolation, .invalidViewTree, .violation: .providerFailed
    case .sandboxFailed: .providerUnavailable
    case .providerFailed(_, let status?, _):
      switch status {
      case .unsupportedSourceLanguage, .unsupportedTargetLanguage, .unsupportedLanguagePairing,
        .unableToIdentifyLanguage:
        .unsupportedLanguage
      case .nothingToTranslate: .invalidInput
      default: .providerFailed
      }
    case .providerFailed: .providerFailed
    case .serviceFailed(let error): exitCode(for: error)
    }
  }

  /// A failure the service forwarded keeps its domain's code; a service that
  /// could not start, went away twice or refused is a failure of the host.
  private static func exitCode(for error: ServiceError) -> ExitCode {
    switch error {
    case .remote(.usage, _): .usage
    case .remote(.unavailable, _): .providerUnavailable
    case .busy, .noAnswer: .deadlineExceeded
    case .remote(.failure, _), .noRuntimeDirectory, .unsafeFolder, .alreadyRunning, .socketFailed, .badActivation, .refused,
      .badRequest, .versionMismatch, .connectionLost, .badReply:
      .failure
    }
  }
}
