import RunnerProtocol
import System

/// Why a provider run failed on the host's side: the runner process, its
/// answers, or the provider behind it.
package enum RunnerError: HostErrorConvertible, Equatable {
  /// No runner executable was found.
  case runnerNotFound(searched: [String])
  /// The runner could not be started.
  case spawnFailed(String, Errno)
  /// The provider (via its runner) missed the deadline and was killed.
  case deadlineExceeded(provider: String, after: Duration)
  /// The runner ended unexpectedly: a crash (signal) or an exit.
  case ended(provider: String, ExitStatus, crash: String? = nil)
  /// The runner broke the protocol.
  case protocolViolation(provider: String, ProtocolError)
  /// The provider's code could not be loaded.
  case loadFailed(provider: String, message: String)
  /// The provider answered a request with a failure.
  case providerFailed(provider: String, status: ProviderStatus?, message: String)
  /// The provider's view tree is unusable.
  case invalidViewTree(provider: String, String)
  /// The provider broke a rule of the ABI (finishing twice, a replacement that is not UTF-8).
  case violation(provider: String, String)
  /// The runner could not isolate the provider as its policy requires.
  case sandboxFailed(provider: String, message: String)

  /// What a failure the runner reported means for the provider `provider`.
  package init(_ failure: RunnerFailure, provider: String) {
    switch failure.kind {
    case .load: self = .loadFailed(provider: provider, message: failure.message)
    case .provider: self = .providerFailed(provider: provider, status: failure.status, message: failure.message)
    case .request: self = .protocolViolation(provider: provider, .malformed(failure.message))
    case .sandbox: self = .sandboxFailed(provider: provider, message: failure.message)
    case .violation: self = .violation(provider: provider, failure.message)
    }
  }

  /// One line: what a runner, a provider or its bundle wrote (a message, a
  /// file name) has its control characters escaped, newlines too, so that it
  /// cannot start a line that looks like the host's own.
  package var description: String {
    multilineDescription.escapingControlCharacters(keeping: [])
  }

  package var hostError: HostError {
    switch self {
    case .runnerNotFound, .spawnFailed: HostError(.failure, description)
    case .loadFailed, .sandboxFailed: HostError(.providerUnavailable, description)
    case .deadlineExceeded: HostError(.deadlineExceeded, description, remedy: .longerDeadline)
    case .ended, .protocolViolation, .invalidViewTree, .violation: HostError(.providerFailed, description)
    case .providerFailed(_, let status, _): HostError(Self.kind(of: status), description)
    }
  }

  /// The kind of failure a provider's status tells, as Apple's errors tell them apart.
  private static func kind(of status: ProviderStatus?) -> HostError.Kind {
    switch status {
    case .unsupportedSourceLanguage?: .unsupportedSourceLanguage
    case .unsupportedTargetLanguage?: .unsupportedTargetLanguage
    case .unsupportedLanguagePairing?: .unsupportedLanguagePairing
    case .unableToIdentifyLanguage?: .unableToIdentifyLanguage
    case .nothingToTranslate?: .nothingToTranslate
    case .ok?, .failed?, .invalidArgument?, .notFound?, nil: .providerFailed
    }
  }

  private var multilineDescription: String {
    switch self {
    case .runnerNotFound(let searched):
      "cannot find translation-provider-runner (looked in \(searched.joined(separator: ", "))); reinstall translation-host or set TRANSLATION_HOST_RUNNER"
    case .spawnFailed(let path, let errno):
      "cannot start \(path): \(errno)"
    case .deadlineExceeded(let provider, let span):
      "provider '\(provider)' did not answer within \(span.readable) and was stopped"
    case .ended(let provider, let status, let crash?):
      "provider '\(provider)' \(status) while working (\(crash)); nothing was replaced. Its log above has the whole backtrace"
    case .ended(let provider, let status, nil):
      "provider '\(provider)' \(status) while working; nothing was replaced"
    case .protocolViolation(let provider, let error):
      "provider '\(provider)' broke the runner protocol: \(error)"
    case .loadFailed(let provider, let message):
      "provider '\(provider)' cannot be loaded: \(message)"
    case .providerFailed(let provider, _, let message):
      "provider '\(provider)': \(message)"
    case .invalidViewTree(let provider, let reason):
      "provider '\(provider)' drew an unusable view: \(reason)"
    case .violation(let provider, let reason):
      "provider '\(provider)' broke the provider ABI: \(reason); it was stopped and nothing was replaced"
    case .sandboxFailed(let provider, let message):
      "provider '\(provider)' was not started: \(message)"
    }
  }
}
