import Glibc

/// The controlling terminal (`/dev/tty`), whatever stdin and stdout are,
/// and its line discipline's mode.
package enum Terminal {
  /// A terminal's mode (`termios`), saved to be put back.
  package struct Mode: Sendable {
    fileprivate var settings: termios
  }

  /// Opens the controlling terminal for reading and writing, close-on-exec,
  /// as a C stream for libraries that draw through one (ncurses). The caller
  /// closes it with `closeStream`.
  package static func openStream() throws(Errno) -> UnsafeMutablePointer<FILE> {
    guard let stream = fopen("/dev/tty", "r+e") else { throw Errno.current }
    return stream
  }

  /// The descriptor under `stream`, which stays the stream's to close.
  package static func descriptor(of stream: UnsafeMutablePointer<FILE>) -> FileDescriptor {
    FileDescriptor(rawValue: fileno(stream))
  }

  /// Closes a stream from `openStream`.
  package static func closeStream(_ stream: UnsafeMutablePointer<FILE>) {
    fclose(stream)
  }

  /// The mode of the terminal on `fd`.
  package static func mode(of fd: FileDescriptor) throws(Errno) -> Mode {
    var settings = termios()
    try Syscalls.retrying { tcgetattr(fd.rawValue, &settings) }
    return Mode(settings: settings)
  }

  /// Puts the terminal on `fd` in `mode` at once. Async-signal-safe: a
  /// crash handler calls it to give the terminal back.
  package static func setMode(_ mode: Mode, of fd: FileDescriptor) {
    var settings = mode.settings
    _ = tcsetattr(fd.rawValue, TCSANOW, &settings)
  }
}
