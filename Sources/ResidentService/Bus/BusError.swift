import System

/// A failure told to a D-Bus caller: a named error and its one-line message.
///
/// The host's failures keep their kind (`HostError.Kind`) as the error's
/// name, so a caller tells them apart as an app tells Apple's
/// `TranslationError`s apart; a call the interface cannot take is the
/// standard `InvalidArgs`, a caller the service does not serve `AccessDenied`.
struct BusError: Error, Equatable, CustomStringConvertible {
  /// The D-Bus error name, such as `org.translationhost.Translation1.Error.UnsupportedLanguagePairing`.
  var name: String
  var message: String

  var description: String { "\(name): \(message)" }

  init(name: String, message: String) {
    self.name = name
    self.message = message
  }

  /// A call the interface's types or documented values do not allow (GDBus's own name for a wrong signature).
  static func invalidArguments(_ message: String) -> BusError {
    BusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
  }

  static func accessDenied(_ message: String) -> BusError {
    BusError(name: "org.freedesktop.DBus.Error.AccessDenied", message: message)
  }

  /// One of the interface's own errors: `<errorPrefix>.<suffix>`.
  static func named(_ suffix: String, _ message: String) -> BusError {
    BusError(name: BusInterface.errorPrefix + "." + suffix, message: message)
  }

  /// The host's failure under the name of its kind.
  init(_ error: HostError) {
    let suffix =
      switch error.kind {
      case .failure, .serviceFailed: "Failed"
      case .usage: "InvalidArguments"
      case .invalidInput: "InvalidText"
      case .nothingToTranslate: "NothingToTranslate"
      case .unsupportedSourceLanguage: "UnsupportedSourceLanguage"
      case .unsupportedTargetLanguage: "UnsupportedTargetLanguage"
      case .unsupportedLanguagePairing: "UnsupportedLanguagePairing"
      case .unableToIdentifyLanguage: "UnableToIdentifyLanguage"
      case .notInstalled: "NotInstalled"
      case .noSuchControl: "NoSuchControl"
      case .providerUnavailable: "ProviderUnavailable"
      case .providerFailed: "ProviderFailed"
      case .deadlineExceeded: "Timeout"
      // Only a popover is interrupted by a signal, and `Present` tells that as response 2.
      case .interrupted: "Failed"
      }
    self = .named(suffix, Self.message(error))
  }

  /// The message, with what would help in a caller's terms (no CLI flags).
  private static func message(_ error: HostError) -> String {
    switch error.remedy {
    case .nameSourceLanguage(let suggested?)?:
      "\(error.message); pass the source language (perhaps '\(suggested)')"
    case .nameSourceLanguage(nil)?: "\(error.message); pass the source language"
    case .longerDeadline?, .bypassService?, nil: error.message
    }
  }
}
