import Foundation
import Glibc
import System
import TestSupport
import Testing

/// `ProcessLineage` tells a process's descendants from the rest, as the
/// service does to refuse its own runners and what they start.
@Suite struct ProcessLineageTests {
  struct Relation: Sendable, CustomTestStringConvertible {
    var testDescription: String
    /// The process to ask about, given this process's child and grandchild.
    var pid: @Sendable (_ child: pid_t, _ grandchild: pid_t) -> pid_t
    var descends: Bool
  }

  static let relations: [Relation] = [
    Relation(testDescription: "this process itself", pid: { _, _ in getpid() }, descends: true),
    Relation(testDescription: "a child", pid: { child, _ in child }, descends: true),
    Relation(testDescription: "a grandchild", pid: { _, grandchild in grandchild }, descends: true),
    Relation(testDescription: "this process's parent", pid: { _, _ in getppid() }, descends: false),
    Relation(testDescription: "init", pid: { _, _ in 1 }, descends: false),
  ]

  @Test(arguments: relations) func tellsDescendantsFromOthers(_ relation: Relation) throws {
    // A shell (the child) that starts a sleep (the grandchild) and waits for
    // it: the sleep is only a process to ask about; the test ends it.
    let child = try Syscalls.spawn(
      "/bin/sh", arguments: ["-c", "sleep 60 & wait"], environment: ["PATH=/usr/bin:/bin"], actions: [], newSession: true)
    defer {
      kill(-child, SIGKILL)
      _ = try? Syscalls.wait(child)
    }
    let grandchild = try eventually("the shell to start its sleep", timeout: .seconds(20)) { Self.firstChild(of: child) }
    #expect(ProcessLineage.descends(relation.pid(child, grandchild), from: getpid()) == relation.descends)
  }

  @Test func aProcessThatIsGoneCannotBeTraced() throws {
    let child = try Syscalls.spawn("/bin/true", arguments: [], environment: [], actions: [], newSession: false)
    _ = try Syscalls.wait(child)
    #expect(ProcessLineage.descends(child, from: getpid()) == nil)
  }

  struct StatusCase: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var status: String
    var parent: pid_t?
  }

  static let statusCases: [StatusCase] = [
    StatusCase(
      testDescription: "the kernel's layout",
      status: "Name:\tsh\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t42\nNgid:\t0\nPid:\t42\nPPid:\t7569\nTracerPid:\t0\n",
      parent: 7569),
    StatusCase(testDescription: "the last line, without a newline", status: "Name:\tx\nPPid:\t1", parent: 1),
    StatusCase(testDescription: "blanks before the number", status: "Name:\tx\nPPid: \t 12\n", parent: 12),
    StatusCase(testDescription: "a name that holds the key", status: "Name:\tPPid:\t3\nPPid:\t4\n", parent: 4),
    StatusCase(testDescription: "no such line", status: "Name:\tx\nPid:\t5\n", parent: nil),
    StatusCase(testDescription: "not a number", status: "Name:\tx\nPPid:\tone\n", parent: nil),
    StatusCase(testDescription: "a number and more", status: "Name:\tx\nPPid:\t12x\n", parent: nil),
    StatusCase(testDescription: "no number", status: "Name:\tx\nPPid:\t\n", parent: nil),
    StatusCase(testDescription: "a number too large for a pid", status: "Name:\tx\nPPid:\t9999999999\n", parent: nil),
    StatusCase(testDescription: "empty", status: "", parent: nil),
  ]

  @Test(arguments: statusCases) func readsTheParentFromTheStatusFile(_ test: StatusCase) {
    #expect(ProcessLineage.parent(inStatus: Array(test.status.utf8)) == test.parent)
  }

  @Test func readsTheParentOfThisProcess() {
    #expect(ProcessLineage.parent(of: getpid()) == getppid())
  }

  /// The first child of `pid`, if it has one.
  static func firstChild(of pid: pid_t) -> pid_t? {
    let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
    return children.split(separator: " ").first.flatMap { pid_t($0) }
  }
}
