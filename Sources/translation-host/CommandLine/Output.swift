import Glibc

/// Where a command writes: data to stdout, diagnostics to stderr.
struct Output {
  /// Writes data (a translation, a replacement) to stdout.
  func data(_ text: String) { write(STDOUT_FILENO, text) }

  /// Writes a diagnostic line to stderr.
  func note(_ text: String) { write(STDERR_FILENO, "translation-host: \(text)\n") }

  /// Writes text to stderr as it is.
  func diagnostic(_ text: String) { write(STDERR_FILENO, text) }

  /// Whether stdout is a terminal.
  var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

  private func write(_ fd: Int32, _ text: String) {
    var text = text
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
      }
    }
  }
}
