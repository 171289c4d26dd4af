/// The exit codes of `translation-host`, stable from ABI v1 on (README and
/// `translation-host --help` list them).
struct ExitCode: RawRepresentable, Equatable, Sendable {
  let rawValue: Int32

  /// It worked.
  static let success = ExitCode(rawValue: 0)
  /// An unexpected failure of the host itself.
  static let failure = ExitCode(rawValue: 1)
  /// The scene closed without a replacement (dismissed, or replacement not allowed).
  static let dismissed = ExitCode(rawValue: 2)
  /// A `--press` label names no button, or a disabled one.
  static let noSuchControl = ExitCode(rawValue: 3)
  /// The language or language pair is unsupported, or the source language could not be identified.
  static let unsupportedLanguage = ExitCode(rawValue: 4)
  /// The command line is wrong (EX_USAGE).
  static let usage = ExitCode(rawValue: 64)
  /// The input text is unusable: not UTF-8, too large, or empty (EX_DATAERR).
  static let invalidInput = ExitCode(rawValue: 65)
  /// The provider cannot be used: not found, not eligible, or not loadable (EX_UNAVAILABLE).
  static let providerUnavailable = ExitCode(rawValue: 69)
  /// The provider failed while working: crash, exit, broken protocol or view, error (EX_SOFTWARE).
  static let providerFailed = ExitCode(rawValue: 70)
  /// Writing the result failed: stdout is closed or full (EX_IOERR).
  static let ioError = ExitCode(rawValue: 74)
  /// The provider missed its deadline and was stopped (EX_TEMPFAIL).
  static let deadlineExceeded = ExitCode(rawValue: 75)

  /// The person interrupted the popover (Ctrl-C), or a signal ended it:
  /// 128 + the signal's number, as shells report it (130, 143, 129).
  static func interrupted(by signal: Int32) -> ExitCode { ExitCode(rawValue: 128 + signal) }

  /// The table printed in `--help`.
  static let table = """
    EXIT STATUS:
      0   success
      1   unexpected failure of the host (or of the resident service, after one retry)
      2   dismissed: no replacement came back (the scene closed or was left open)
      3   a --press label names no button, or a disabled one
      4   unsupported language or pair, or the language could not be identified
      64  usage error
      65  unusable input text (not UTF-8, too large; empty for translate)
      69  provider unavailable (not found, not eligible, cannot be loaded or sandboxed)
      70  provider failed (crashed, exited, broke the protocol, returned an error)
      74  the result could not be written to stdout
      75  provider missed its deadline and was stopped (or no warm runner became free)
      130 the popover was interrupted by Ctrl-C (129, 143: by SIGHUP, SIGTERM)
    """
}
