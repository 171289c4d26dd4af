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

  /// Writes a diagnostic line to stderr. Control characters in it (which may
  /// come from a provider or a bundle) are escaped.
  func note(_ text: String) { try? Syscalls.writeAll(standardError, "translation-host: \(text.escapingControlCharacters())\n") }

  /// Writes text to stderr, its control characters but newlines and tabs escaped.
  func diagnostic(_ text: String) { try? Syscalls.writeAll(standardError, text.escapingControlCharacters()) }

  /// Whether stdout is a terminal.
  var stdoutIsTerminal: Bool { Syscalls.isTerminal(standardOutput) }
}
