import Synchronization
import System

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
  private static let termination: [Signal] = [.interrupt, .terminate, .hangUp]
  private static let fatal: [Signal] = [.segmentationFault, .busError, .illegalInstruction, .arithmeticError, .abort, .trap]
  private static let all = termination + fatal

  private static let received = Atomic<Int32>(0)
  // Written before the handlers are installed and after they are removed;
  // the handlers only read them.
  nonisolated(unsafe) private static var descriptor: FileDescriptor?
  nonisolated(unsafe) private static var savedMode: Terminal.Mode?
  nonisolated(unsafe) private static var resetSequence: [UInt8] = []
  /// The handlers before `install`, in the order of `all`.
  nonisolated(unsafe) private static var previous: [Signal.Disposition] = []
  /// Made readable when a termination signal or a resize arrives, so the loop waiting on it wakes.
  private static let wakeDescriptor = Atomic<Int32>(-1)
  /// The handler for resizes that ncurses installed, which ours calls first.
  nonisolated(unsafe) private static var resizeHandler: Signal.Disposition?

  /// The termination signal that arrived, if any.
  static var pending: Signal? {
    let signal = received.load(ordering: .relaxed)
    return signal == 0 ? nil : Signal(rawValue: signal)
  }

  /// Installs the handlers for the terminal on `fd`, before ncurses
  /// starts: ncurses installs handlers of its own (which exit with status
  /// 1) for SIGINT and SIGTERM when it finds the default ones.
  /// - Parameter mode: the terminal's mode before the popover changes
  ///   anything; nil when it could not be read (a crash then only resets the screen).
  static func install(terminal fd: FileDescriptor, mode: Terminal.Mode?) {
    descriptor = fd
    savedMode = mode
    resetSequence = []
    received.store(0, ordering: .relaxed)
    previous = all.map { signal in
      termination.contains(signal)
        ? signal.handle {
          TerminalSignals.received.store($0, ordering: .relaxed)
          TerminalSignals.wakeLoop()
        }
        : signal.handle { TerminalSignals.crashed($0) }
    }
  }

  /// Has resizes wake the loop too, once ncurses installed its own handler
  /// for them (which still runs first, so that ncurses reports the resize as a key).
  static func watchResizes() {
    resizeHandler = Signal.windowChange.handle {
      TerminalSignals.resizeHandler?.forward($0)
      TerminalSignals.wakeLoop()
    }
  }

  /// The descriptor the signals make readable while a loop waits on it (nil: none).
  static func wakes(_ descriptor: FileDescriptor?) {
    wakeDescriptor.store(descriptor?.rawValue ?? -1, ordering: .relaxed)
  }

  private static func wakeLoop() {
    let descriptor = wakeDescriptor.load(ordering: .relaxed)
    if descriptor >= 0 { WakeDescriptor.wake(FileDescriptor(rawValue: descriptor)) }
  }

  /// Sets the bytes that put the screen back after a crash (leave the
  /// alternate screen, show the cursor, plain attributes), once the
  /// terminal's description is loaded.
  static func setReset(_ bytes: [UInt8]) { resetSequence = bytes }

  /// Puts back the handlers that were there before `install`, then raises
  /// the termination signal that arrived meanwhile, if any, for them.
  static func uninstall() {
    for (signal, disposition) in zip(all, previous) { signal.restore(disposition) }
    previous = []
    if let resizeHandler { Signal.windowChange.restore(resizeHandler) }
    resizeHandler = nil
    wakes(nil)
    descriptor = nil
    pending?.raise()
  }

  private static func crashed(_ number: Int32) {
    if let descriptor {
      if let savedMode { Terminal.setMode(savedMode, of: descriptor) }
      _ = resetSequence.withUnsafeBytes { try? Syscalls.write(descriptor, $0) }
    }
    let signal = Signal(rawValue: number)
    signal.restoreDefault()
    signal.raise()
  }
}
