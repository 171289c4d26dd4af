import Glibc
import System

/// Where a command writes: data to stdout, diagnostics to stderr.
struct Output {
  /// Writes data (a translation, a replacement) to stdout, all of it. When
  /// stdout is a terminal, control characters other than newlines and tabs
  /// are escaped, so text from a provider cannot drive the terminal (set
  /// its title, write the clipboard); a pipe or file gets the bytes as they are.
  /// - Throws: a `CommandError` with exit code 74 when stdout cannot take it.
  func data(_ text: String) throws(CommandError) {
    if let failure = write(STDOUT_FILENO, stdoutIsTerminal ? text.escapingControlCharacters() : text) {
      throw CommandError("cannot write to stdout: \(String(cString: strerror(failure)))", exitCode: .ioError)
    }
  }

  /// Writes a diagnostic line to stderr. Control characters in it (which may
  /// come from a provider or a bundle) are escaped.
  func note(_ text: String) { write(STDERR_FILENO, "translation-host: \(text.escapingControlCharacters())\n") }

  /// Writes text to stderr, its control characters but newlines and tabs escaped.
  func diagnostic(_ text: String) { write(STDERR_FILENO, text.escapingControlCharacters()) }

  /// Whether stdout is a terminal.
  var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

  /// Writes all of `text`, waiting when the descriptor is non-blocking and
  /// full. Returns the `errno` that stopped it, or nil.
  @discardableResult
  private func write(_ fd: Int32, _ text: String) -> Int32? {
    var text = text
    return text.withUTF8 { bytes -> Int32? in
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if written >= 0 {
          offset += written
        } else if errno == EAGAIN {
          var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
          _ = poll(&ready, 1, -1)
        } else if errno != EINTR {
          return errno
        }
      }
      return nil
    }
  }
}
