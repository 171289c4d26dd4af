import Foundation
import Glibc
import System
import TestSupport
import Testing

/// What a spawned program inherits: the standard three and what the actions
/// name, never another descriptor of ours, close-on-exec or not.
@Suite struct SpawnTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let testDescription: String
    /// Extra actions, given our descriptor that is not close-on-exec.
    let actions: @Sendable (FileDescriptor) -> [Syscalls.SpawnAction]
    /// The child's descriptors that must be open, by name: "ours" is the
    /// number of our descriptor, the rest are numbers.
    let open: Set<String>
  }

  static let cases: [Case] = [
    Case(testDescription: "no action: the standard three only", actions: { _ in [] }, open: ["0", "1", "2"]),
    Case(
      testDescription: "ours given as 3 (a runner's protocol socket)",
      actions: { [.duplicate($0, as: FileDescriptor(rawValue: 3))] },
      open: ["0", "1", "2", "3"]),
    Case(
      testDescription: "a file opened as 9: those below it that no action names are closed",
      actions: { _ in [.nullDevice(as: FileDescriptor(rawValue: 9))] },
      open: ["0", "1", "2", "9"]),
    Case(
      testDescription: "ours given as itself", actions: { [.duplicate($0, as: $0)] }, open: ["0", "1", "2", "ours"]),
  ]

  @Test(arguments: cases) func inheritsOnlyWhatIsNamed(_ test: Case) throws {
    let folder = try TemporaryDirectory()
    // Not close-on-exec, as a descriptor this process was given would be;
    // numbered above what the cases name.
    let ours = FileDescriptor(rawValue: fcntl(open("/dev/null", O_RDONLY | O_CLOEXEC), F_DUPFD, 40))
    #expect(ours.rawValue >= 40 && fcntl(ours.rawValue, F_GETFD) & FD_CLOEXEC == 0)
    defer { Syscalls.close(ours) }
    let report = folder.path + "/open"
    // `[ -e ]` on the shell's own /proc entry opens nothing itself.
    let script = "for fd in $(seq 0 \(ours.rawValue)); do [ -e /proc/$$/fd/$fd ] && echo $fd; done; true"
    let child = try Syscalls.spawn(
      "/bin/sh", arguments: ["-c", script], environment: ["PATH=/usr/bin:/bin"],
      actions: [.open(report, as: .standardOutput, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600)] + test.actions(ours),
      newSession: false)
    #expect(ExitStatus(waitStatus: try Syscalls.wait(child)) == .exited(0))
    let open = Set(try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map(String.init))
    let expected = Set(test.open.map { $0 == "ours" ? String(ours.rawValue) : $0 })
    #expect(open == expected)
  }
}
