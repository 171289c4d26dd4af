import Glibc
import Synchronization

/// Signals while the popover owns the terminal.
///
/// SIGINT, SIGTERM and SIGHUP are recorded and end the popover's loop; once
/// the terminal is restored, `uninstall` puts the process's own handlers
/// back and raises the signal again, so the program (the CLI, or an app
/// using the client library) handles it as it would have. Fatal signals (a
/// crash in the host itself) restore the terminal's saved mode and reset
/// its screen from inside the handler, with async-signal-safe calls only,
/// then kill the process as they would have. They do not go on to Swift's
/// backtracer: it may wait for keys on the terminal, and when it returns
/// (a signal sent rather than a fault) the process would go on drawing on a
/// terminal it no longer owns.
enum TerminalSignals {
  /// The termination signals the loop handles.
  private static let termination: [Int32] = [SIGINT, SIGTERM, SIGHUP]
  private static let fatal: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]
  private static let all = termination + fatal

  private static let received = Atomic<Int32>(0)
  // Written before the handlers are installed and after they are removed;
  // the handlers only read them.
  nonisolated(unsafe) private static var descriptor: Int32 = -1
  nonisolated(unsafe) private static var savedMode = termios()
  nonisolated(unsafe) private static var resetSequence: [UInt8] = []
  /// The handlers before `install`, in the order of `all`.
  nonisolated(unsafe) private static var previous = Array(repeating: Glibc.sigaction(), count: all.count)

  /// The termination signal that arrived, if any.
  static var pending: Int32? {
    let signal = received.load(ordering: .relaxed)
    return signal == 0 ? nil : signal
  }

  /// Installs the handlers for the terminal on `fd`, before ncurses
  /// starts: ncurses installs handlers of its own (which exit with status
  /// 1) for SIGINT and SIGTERM when it finds the default ones.
  /// - Parameter mode: the terminal's mode before the popover changes anything.
  static func install(terminal fd: Int32, mode: termios) {
    descriptor = fd
    savedMode = mode
    resetSequence = []
    received.store(0, ordering: .relaxed)
    for (index, signal) in all.enumerated() {
      var action = Glibc.sigaction()
      if termination.contains(signal) {
        action.__sigaction_handler.sa_handler = { TerminalSignals.received.store($0, ordering: .relaxed) }
      } else {
        action.__sigaction_handler.sa_handler = { TerminalSignals.crashed($0) }
      }
      sigemptyset(&action.sa_mask)
      sigaction(signal, &action, &previous[index])
    }
  }

  /// Sets the bytes that put the screen back after a crash (leave the
  /// alternate screen, show the cursor, plain attributes), once the
  /// terminal's description is loaded.
  static func setReset(_ bytes: [UInt8]) { resetSequence = bytes }

  /// Puts back the handlers that were there before `install`, then raises
  /// the termination signal that arrived meanwhile, if any, for them.
  static func uninstall() {
    for (index, signal) in all.enumerated() { sigaction(signal, &previous[index], nil) }
    descriptor = -1
    if let signal = pending { raise(signal) }
  }

  private static func crashed(_ signal: Int32) {
    if descriptor >= 0 {
      tcsetattr(descriptor, TCSANOW, &savedMode)
      _ = resetSequence.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
    Glibc.signal(signal, SIG_DFL)
    raise(signal)
  }
}
