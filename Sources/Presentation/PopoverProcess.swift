import Dispatch
import FoundationEssentials
import Synchronization
import System

/// The popover in a process of its own: the installation's
/// `translation-host-desktop run`, for callers that must not load GTK 4
/// themselves (the resident service's D-Bus `Present`, an app's
/// `translationPresentation`).
///
/// The text goes to `run`'s stdin, never to its command line, which every
/// user can read in `/proc`. `run` takes one trailing line break off stdin
/// and puts it back after a replacement, so the text is sent with one more
/// and the replacement comes back without it: the provider sees the text
/// exactly, and the caller gets the replacement exactly.
///
/// `run`'s exit status is the outcome, as its `--help` documents it: 0 with
/// the replacement (and nothing else) on stdout, 2 dismissed, 128 + a
/// signal interrupted; any other status is a failure whose message is `run`'s
/// own `Error:` line.
package struct PopoverProcess: Sendable {
  /// What `run` did.
  package struct Output: Sendable {
    package var status: ExitStatus
    /// The replacement, when `status` is 0 and replacement was allowed.
    package var replacement: String
    package var stderr: String

    /// `run`'s `Error:` line, without the prefix, if it printed one.
    package var errorLine: String? {
      stderr.split(separator: "\n").first { $0.hasPrefix("Error: ") }.map { String($0.dropFirst(7)) }
    }
  }

  /// The program: an installation's `translation-host-desktop`.
  package let executable: String
  /// The environment `run` gets: the display's variables decide where it draws.
  package let environment: [String: String]

  package init(executable: String, environment: [String: String]) {
    self.executable = executable
    self.environment = environment
  }

  /// The largest replacement taken: `run` takes texts of up to 4 MiB, and
  /// a translation may be longer than its text.
  static let maximumReplacementBytes = 16 << 20
  /// The most of stderr kept (it is read to the end): enough for `run`'s
  /// `Error:` line, which comes last.
  static let maximumErrorBytes = 64 << 10

  /// Shows the popover for `text` and waits for it to close: in the
  /// session's resident desktop agent when `arguments` ask for the desktop
  /// one (`--desktop`) and an agent can be had (`DesktopAgentClient`: no GTK
  /// starts for it), else in a `run` process (`run(_:text:started:ending:)`).
  /// `started` is given a closure that closes the popover, valid until
  /// `ending` is called (it may be called again after `ending`, when the
  /// agent was busy and a process shows the popover instead); `track` is
  /// told of each process started for it, while it runs and once it has ended.
  /// - Throws: `PopoverProcessError`, as `run`.
  package func present(
    _ arguments: [String], text: String, track: @escaping @Sendable (_ pid: Int32, _ isRunning: Bool) -> Void = { _, _ in },
    started: (_ close: @escaping @Sendable () -> Void) -> Void, ending: () -> Void
  ) throws(PopoverProcessError) -> Output {
    if arguments.contains("--desktop"),
      let output = DesktopAgentClient(executable: executable, environment: environment, track: track).present(
        arguments, text: text, started: started, ending: ending)
    {
      return output
    }
    var pid: Int32 = 0
    return try run(
      arguments, text: text,
      started: { group in
        pid = group
        track(group, true)
        started { Syscalls.kill(-group, .kill) }
      },
      ending: {
        ending()
        track(pid, false)
      })
  }

  /// Runs `run <arguments>` with `text` on its stdin, in a process group of
  /// its own, and waits for it to end. `started` is told the group's id as
  /// soon as it runs (killing the group closes the popover), and `ending` is
  /// called when it has ended but before it is reaped: a caller that kills
  /// the group only under the lock that `ending` takes never signals a
  /// group whose id was given to another process since.
  /// - Throws: `PopoverProcessError` when `run` could not be started or
  ///   waited for, its replacement could not be read, or it wrote one larger
  ///   than `maximumReplacementBytes`: the popover is closed then, and
  ///   nothing partial is handed on.
  package func run(
    _ arguments: [String], text: String, started: (Int32) -> Void, ending: () -> Void
  ) throws(PopoverProcessError) -> Output {
    var descriptors: [FileDescriptor] = []
    defer { descriptors.forEach(Syscalls.close) }
    let pid: Int32
    let (stdinWrite, stdoutRead, stderrRead): (FileDescriptor, FileDescriptor, FileDescriptor)
    do throws(Errno) {
      let (stdinRead, stdinEnd) = try Syscalls.socketPair()
      descriptors += [stdinRead, stdinEnd]
      let (stdoutEnd, stdoutWrite) = try Syscalls.socketPair()
      descriptors += [stdoutEnd, stdoutWrite]
      let (stderrEnd, stderrWrite) = try Syscalls.socketPair()
      descriptors += [stderrEnd, stderrWrite]
      pid = try Syscalls.spawn(
        executable, arguments: ["run", "--close-with-parent=\(Syscalls.processID)"] + arguments,
        environment: environment.map { "\($0.key)=\($0.value)" },
        actions: [
          .duplicate(stdinRead, as: .standardInput), .duplicate(stdoutWrite, as: .standardOutput),
          .duplicate(stderrWrite, as: .standardError),
        ], newSession: true)
      // The child's ends are its own now; ours stay open until this returns, but the writer's, which it closes.
      [stdinRead, stdoutWrite, stderrWrite].forEach(Syscalls.close)
      descriptors = [stdoutEnd, stderrEnd]
      (stdinWrite, stdoutRead, stderrRead) = (stdinEnd, stdoutEnd, stderrEnd)
    } catch {
      throw .cannotStart(executable, error)
    }
    started(pid)
    // The text is written, and stderr read, on threads of their own, so that
    // no stream can fill up and stall the others.
    let errors = Mutex<[UInt8]>([])
    let done = DispatchSemaphore(value: 0)
    DetachedThread.start(name: "popover stdin") {
      // A popover that ends before reading it all (a usage error) is no error here: its status says what happened.
      try? Syscalls.writeAll(stdinWrite, text + "\n")
      Syscalls.close(stdinWrite)
      done.signal()
    }
    DetachedThread.start(name: "popover stderr") {
      let kept = Self.drain(stderrRead, keeping: Self.maximumErrorBytes)
      errors.withLock { $0 = kept }
      done.signal()
    }
    var failure: PopoverProcessError?
    var stdout: [UInt8] = []
    do throws(Errno) {
      stdout = try Syscalls.readAll(stdoutRead, limit: Self.maximumReplacementBytes)
      if stdout.count > Self.maximumReplacementBytes { failure = .replacementTooLarge(limit: Self.maximumReplacementBytes) }
    } catch {
      failure = .cannotRead(error)
    }
    if failure != nil { Syscalls.kill(-pid, .kill) }
    done.wait()
    done.wait()
    // Its output is closed, which `run` does only by exiting; not yet reaped.
    ending()
    let status: ExitStatus
    do throws(Errno) { status = ExitStatus(waitStatus: try Syscalls.wait(pid)) } catch {
      throw .cannotWait(error)
    }
    if let failure { throw failure }
    if stdout.last == UInt8(ascii: "\n") { stdout.removeLast() }
    return Output(
      status: status, replacement: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: errors.withLock { $0 }, as: UTF8.self))
  }

  /// Reads `fd` to its end, keeping the last `limit` bytes: a popover whose
  /// provider says a lot is never stalled on a full stderr, and its
  /// `Error:` line, written last, is kept.
  private static func drain(_ fd: FileDescriptor, keeping limit: Int) -> [UInt8] {
    var kept: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while let count = try? Syscalls.read(fd, into: &chunk), count > 0 {
      kept += chunk[0..<count]
      if kept.count > 2 * limit { kept.removeFirst(kept.count - limit) }
    }
    return Array(kept.suffix(limit))
  }
}
