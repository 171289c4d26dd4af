import Glibc
import System
import Testing

/// Waiting for a child to end (`Syscalls.reap(_:waitingUpTo:)`): woken by
/// the child's process descriptor when it ends, or nil at the deadline.
@Suite struct ReapTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let testDescription: String
    /// What the child runs (`sh -c`).
    let script: String
    let waiting: Duration
    /// How it ended; nil: still running at the deadline.
    let expected: System.ExitStatus?
  }

  static let cases: [Case] = [
    Case(testDescription: "a child that exits at once", script: "exit 3", waiting: .seconds(60), expected: .exited(3)),
    Case(
      testDescription: "a child that ends a moment later, by a signal", script: "sleep 0.2; kill -TERM $$",
      waiting: .seconds(60), expected: .signaled(SIGTERM)),
    Case(
      testDescription: "a child still running at the deadline", script: "exec sleep 60", waiting: .milliseconds(100),
      expected: nil),
    Case(testDescription: "no time to wait: only looks", script: "exec sleep 60", waiting: .zero, expected: nil),
  ]

  @Test(arguments: cases) func returnsWhenTheChildEndsOrAtTheDeadline(_ test: Case) throws {
    let child = try Syscalls.spawn(
      "/bin/sh", arguments: ["-c", test.script], environment: ["PATH=/usr/bin:/bin"], actions: [], newSession: false)
    let start = ContinuousClock.now
    let status = try Syscalls.reap(child, waitingUpTo: test.waiting)
    let waited = ContinuousClock.now - start
    #expect(status.map(ExitStatus.init(waitStatus:)) == test.expected)
    if test.expected == nil {
      #expect(waited >= test.waiting, "returned after \(waited), before the deadline")
      Syscalls.kill(child, .kill)
      #expect(ExitStatus(waitStatus: try Syscalls.wait(child)) == .signaled(SIGKILL))
    } else {
      // Woken by the end, not by the deadline.
      #expect(waited < test.waiting, "returned after \(waited)")
    }
  }

  /// A process that is not a child of this one (or was reaped already) is an error, not a wait.
  @Test func aProcessThatIsNotAChildIsAnError() throws {
    let child = try Syscalls.spawn("/bin/true", arguments: [], environment: [], actions: [], newSession: false)
    _ = try Syscalls.wait(child)
    #expect(throws: Errno(rawValue: ECHILD)) { try Syscalls.reap(child, waitingUpTo: .seconds(1)) }
  }
}
