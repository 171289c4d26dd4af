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

  /// The first child of `pid`, if it has one.
  static func firstChild(of pid: pid_t) -> pid_t? {
    let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
    return children.split(separator: " ").first.flatMap { pid_t($0) }
  }
}
