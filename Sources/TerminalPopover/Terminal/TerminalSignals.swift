import Glibc
import Synchronization

/// Signals while the popover owns the terminal.
///
/// SIGINT, SIGTERM and SIGHUP are recorded and handled by the popover's loop,
/// which restores the terminal before the process ends. Fatal signals (a
/// crash in the host itself) restore the terminal's saved mode and reset
/// its screen from inside the handler, with async-signal-safe calls only,
/// then die as they would have.
package enum TerminalSignals {
  /// The termination signals the loop handles.
  static let termination: [Int32] = [SIGINT, SIGTERM, SIGHUP]
  private static let fatal: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

  private static let received = Atomic<Int32>(0)
  // Written before the handlers are installed and after they are removed;
  // the handlers only read them.
  nonisolated(unsafe) private static var descriptor: Int32 = -1
  nonisolated(unsafe) private static var savedMode = termios()
  nonisolated(unsafe) private static var resetSequence: [UInt8] = []
  nonisolated(unsafe) private static var previous: [Int32: sigaction] = [:]

  /// The termination signal that arrived, if any.
  package static var pending: Int32? {
    let signal = received.load(ordering: .relaxed)
    return signal == 0 ? nil : signal
  }

  /// Installs the handlers for the terminal on `fd`.
  /// - Parameters:
  ///   - mode: the terminal's mode before the popover changed anything.
  ///   - reset: bytes that put the screen back (leave the alternate screen,
  ///     show the cursor, plain attributes).
  static func install(terminal fd: Int32, mode: termios, reset: [UInt8]) {
    descriptor = fd
    savedMode = mode
    resetSequence = reset
    received.store(0, ordering: .relaxed)
    for signal in termination { handle(signal) { TerminalSignals.received.store($0, ordering: .relaxed) } }
    for signal in fatal {
      handle(signal) { signal in
        TerminalSignals.rescue()
        Glibc.signal(signal, SIG_DFL)
        raise(signal)
      }
    }
  }

  /// Puts back the handlers that were there before `install`.
  static func uninstall() {
    for (signal, var action) in previous { sigaction(signal, &action, nil) }
    previous = [:]
    descriptor = -1
  }

  private static func handle(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    sigemptyset(&action.sa_mask)
    var old = sigaction()
    sigaction(signal, &action, &old)
    previous[signal] = old
  }

  private static func rescue() {
    guard descriptor >= 0 else { return }
    tcsetattr(descriptor, TCSANOW, &savedMode)
    _ = resetSequence.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
  }
}
