import System

/// Where a command writes: data to stdout, diagnostics to stderr (or, in
/// tests, to the descriptors given).
struct Output {
  var standardOutput = FileDescriptor.standardOutput
  var standardError = FileDescriptor.standardError

  /// Writes data (a translation, a replacement) to stdout, all of it. When
  /// stdout is a terminal, control characters other than newlines and tabs
  /// are escaped, so text from a provider cannot drive the terminal (set
  /// its title, write the clipboard); a pipe or file gets the bytes as they are.
  /// - Throws: a `CommandError` with exit code 74 when stdout cannot take it.
  func data(_ text: String) throws(CommandError) {
    do throws(Errno) {
      try Syscalls.writeAll(standardOutput, stdoutIsTerminal ? text.escapingControlCharacters() : text)
    } catch {
      throw CommandError("cannot write to stdout: \(error)", exitCode: .ioError)
    }
  }

  /// Whether notes and errors are also desktop notifications: for `run` with
  /// no terminal in a graphical session (started from a shortcut or a menu),
  /// where stderr reaches no one.
  var notifiesDesktop = false

  /// Writes a diagnostic line to stderr (and a notification, `notifiesDesktop`).
  /// Control characters in it (which may come from a provider or a bundle) are escaped.
  func note(_ text: String) {
    try? Syscalls.writeAll(standardError, "translation-host: \(text.escapingControlCharacters())\n")
    if notifiesDesktop { DesktopNotification.show(summary: "Translation", body: text, critical: false) }
  }

  /// Writes an error's message to stderr as `Error: …` (and a notification, `notifiesDesktop`).
  func error(_ message: String) {
    diagnostic("Error: \(message)\n")
    if notifiesDesktop { DesktopNotification.show(summary: "Translation failed", body: message, critical: true) }
  }

  /// Whether this process has no terminal at all: stdin, stdout and stderr are none.
  static var hasNoTerminal: Bool {
    ![FileDescriptor.standardInput, .standardOutput, .standardError].contains { Syscalls.isTerminal($0) }
  }

  /// Writes text to stderr, its control characters but newlines and tabs escaped.
  func diagnostic(_ text: String) { try? Syscalls.writeAll(standardError, text.escapingControlCharacters()) }

  /// Whether stdout is a terminal.
  var stdoutIsTerminal: Bool { Syscalls.isTerminal(standardOutput) }
}
