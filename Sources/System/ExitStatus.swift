/// How a child process ended, decoded from a `waitpid` status.
package enum ExitStatus: Equatable, Sendable, CustomStringConvertible {
  case exited(Int32)
  case signaled(Int32)

  package init(waitStatus status: Int32) {
    let signal = status & 0x7f
    self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
  }

  package var description: String {
    switch self {
    case .exited(let code): "exited with status \(code)"
    case .signaled(let signal): "was killed by \(Signal(rawValue: signal).name)"
    }
  }
}
