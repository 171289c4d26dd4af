/// Every failure the host reports, whatever domain it arose in: a kind,
/// which each front end maps once (the CLI to an exit code, the
/// `Translation` library to Apple's `TranslationError`), a one-line
/// message, and what the person could do about it in the front end's own
/// terms (`remedy`): the CLI names a flag, an app its own controls.
///
/// Each domain keeps its own error enum, whose cases carry the path, key or
/// value that failed; it becomes a `HostError` through `HostErrorConvertible`
/// at the edge, never by a ladder of casts.
package struct HostError: Error, Equatable, Sendable, CustomStringConvertible {
  /// How bad it is and whose fault, as front ends tell it apart.
  package enum Kind: Equatable, Sendable {
    /// The host itself failed (or something it needs: a folder, a socket).
    case failure
    /// The caller asked for something impossible: a bad option, setting or variable.
    case usage
    /// The input text is unusable.
    case invalidInput
    /// There was no text to translate (Apple's `nothingToTranslate`).
    case nothingToTranslate
    /// The language or pair is unsupported, or the source language could not be identified.
    case unsupportedSourceLanguage, unsupportedTargetLanguage, unsupportedLanguagePairing, unableToIdentifyLanguage
    /// The provider supports the pair, but what it needs for it is not installed (Apple's `notInstalled`).
    case notInstalled
    /// A scripted press names no enabled button.
    case noSuchControl
    /// The provider cannot be used: not found, not eligible, not loadable or not sandboxable.
    case providerUnavailable
    /// The provider failed while working: crashed, broke a rule, returned an error.
    case providerFailed
    /// The provider missed its deadline, or no runner became free in time.
    case deadlineExceeded
    /// The resident service failed, went away or could not be used.
    case serviceFailed
    /// A signal (Ctrl-C, SIGTERM, SIGHUP) ended the work.
    case interrupted(signal: Int32)
  }

  /// What would help, said without naming any front end's controls.
  package enum Remedy: Equatable, Sendable {
    /// Allow the provider more time.
    case longerDeadline
    /// Name the source language; `suggested` is detection's best guess.
    case nameSourceLanguage(suggested: String?)
    /// Run the provider without the resident service.
    case bypassService
  }

  package var kind: Kind
  /// One line, without flags or other front-end words.
  package var message: String
  package var remedy: Remedy?

  package init(_ kind: Kind, _ message: String, remedy: Remedy? = nil) {
    self.kind = kind
    self.message = message
    self.remedy = remedy
  }

  /// `error` as a `HostError`: itself, its domain's reading of it, or a failure with its text.
  package init(_ error: any Error) {
    switch error {
    case let error as HostError: self = error
    case let error as any HostErrorConvertible: self = error.hostError
    default: self.init(.failure, String(describing: error))
    }
  }

  package var description: String { message }
}

/// A domain's error, told as a `HostError`.
package protocol HostErrorConvertible: Error, CustomStringConvertible {
  var hostError: HostError { get }
}

extension Errno: HostErrorConvertible {
  package var hostError: HostError { HostError(.failure, description) }
}
