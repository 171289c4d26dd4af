import Glibc

/// A signal number, typed (`Signal.interrupt` is `SIGINT`), with what a
/// process does about it: handle it, ignore it, raise it.
package struct Signal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  package let rawValue: Int32

  package init(rawValue: Int32) { self.rawValue = rawValue }

  package static let hangUp = Signal(rawValue: SIGHUP)
  package static let interrupt = Signal(rawValue: SIGINT)
  package static let kill = Signal(rawValue: SIGKILL)
  package static let brokenPipe = Signal(rawValue: SIGPIPE)
  package static let terminate = Signal(rawValue: SIGTERM)
  // What a fault in the process raises.
  package static let segmentationFault = Signal(rawValue: SIGSEGV)
  package static let busError = Signal(rawValue: SIGBUS)
  package static let illegalInstruction = Signal(rawValue: SIGILL)
  package static let arithmeticError = Signal(rawValue: SIGFPE)
  package static let abort = Signal(rawValue: SIGABRT)
  package static let trap = Signal(rawValue: SIGTRAP)
  /// The terminal changed size.
  package static let windowChange = Signal(rawValue: SIGWINCH)

  /// `SIGSEGV`-style name; "signal 40" for one without a name here.
  package var name: String {
    let names: [Int32: String] = [
      SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
      SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV",
      SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGXCPU: "SIGXCPU",
      SIGXFSZ: "SIGXFSZ", SIGSYS: "SIGSYS",
    ]
    return names[rawValue] ?? "signal \(rawValue)"
  }

  /// What the C library calls it: "Terminated", "Hangup".
  package var description: String { String(cString: strsignal(rawValue)) }

  /// A function run when a signal arrives, given its number. It may only
  /// make async-signal-safe calls: no allocation, no locks, no Swift
  /// runtime that might take one.
  package typealias Handler = @convention(c) (Int32) -> Void

  /// What the process did about a signal before a change, to put back.
  package struct Disposition {
    fileprivate var action: sigaction

    /// Runs the handler this disposition names, if it is a plain function
    /// (not the default, not ignoring): a handler that chains to the one it
    /// replaced calls it. Async-signal-safe.
    package func forward(_ number: Int32) {
      guard action.sa_flags & SA_SIGINFO == 0, let handler = action.__sigaction_handler.sa_handler,
        unsafeBitCast(handler, to: Int.self) != unsafeBitCast(SIG_IGN, to: Int.self)
      else { return }
      handler(number)
    }
  }

  /// Runs `handler` when the signal arrives (no further signals blocked
  /// meanwhile, no flags); returns what it replaces.
  @discardableResult
  package func handle(with handler: Handler) -> Disposition {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    return install(action)
  }

  /// Ignores the signal from now on; returns what was done about it before.
  @discardableResult
  package func ignore() -> Disposition {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_IGN
    return install(action)
  }

  /// Puts back what `signal` did before a change.
  package func restore(_ disposition: Disposition) {
    var action = disposition.action
    sigaction(rawValue, &action, nil)
  }

  /// Gives the signal its default effect again. Async-signal-safe: a
  /// handler calls it before raising the signal once more.
  package func restoreDefault() {
    _ = Glibc.signal(rawValue, SIG_DFL)
  }

  /// Sends the signal to the calling thread. Async-signal-safe.
  package func raise() {
    _ = Glibc.raise(rawValue)
  }

  private func install(_ action: sigaction) -> Disposition {
    var action = action
    sigemptyset(&action.sa_mask)
    var previous = sigaction()
    sigaction(rawValue, &action, &previous)
    return Disposition(action: previous)
  }
}
