import Dispatch
import Synchronization
import System

/// Where `run` writes for a caller of the agent's socket: its stdout (the
/// replacement) and stderr, each a socket pair read to its end on a thread
/// of its own, so that `run`, on the main thread, never stalls on a full
/// buffer. At most `PopoverProcess`'s limits are kept.
package final class AgentOutput: Sendable {
  /// `run`'s stdout and stderr: the ends it writes to.
  package let standardOutput: FileDescriptor
  package let standardError: FileDescriptor
  private let read = Mutex<(stdout: [UInt8], stderr: [UInt8])>(([], []))
  private let done = DispatchSemaphore(value: 0)
  private let started: Bool

  /// The largest replacement kept (as `PopoverProcess`), and the most of stderr.
  static let maximumReplacementBytes = 16 << 20
  static let maximumErrorBytes = 64 << 10

  init() {
    guard let (outRead, outWrite) = try? Syscalls.socketPair(),
      let (errRead, errWrite) = try? Syscalls.socketPair()
    else {
      // Nothing can be captured: `run` writes into /dev/null-like closed ends, and the caller hears an empty answer.
      standardOutput = FileDescriptor(rawValue: -1)
      standardError = FileDescriptor(rawValue: -1)
      started = false
      return
    }
    standardOutput = outWrite
    standardError = errWrite
    started = true
    DetachedThread.start(name: "agent stdout") {
      // Read to the end, whatever its size (`run` must never block on it); one too large is refused in `finish`.
      let bytes = (try? Syscalls.readAll(outRead)) ?? []
      Syscalls.close(outRead)
      self.read.withLock { $0.stdout = bytes }
      self.done.signal()
    }
    DetachedThread.start(name: "agent stderr") {
      let bytes = (try? Syscalls.readAll(errRead)) ?? []
      Syscalls.close(errRead)
      self.read.withLock { $0.stderr = Array(bytes.suffix(Self.maximumErrorBytes)) }
      self.done.signal()
    }
  }

  /// Closes the ends `run` wrote to and returns what it wrote: (stdout,
  /// stderr); nil for stdout when it is larger than `maximumReplacementBytes`.
  func finish() -> (String?, String) {
    guard started else { return ("", "") }
    Syscalls.close(standardOutput)
    Syscalls.close(standardError)
    done.wait()
    done.wait()
    return read.withLock {
      (
        $0.stdout.count > Self.maximumReplacementBytes ? nil : String(decoding: $0.stdout, as: UTF8.self),
        String(decoding: $0.stderr, as: UTF8.self)
      )
    }
  }
}
