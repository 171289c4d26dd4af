import System

/// What is at the other end of a runner's socket, besides the socket.
package enum RunnerProcess: Sendable {
  /// A sandboxed `translation-provider-runner`, leader of its own process
  /// group, whose output `output` forwards.
  case sandboxed(pid: Int32, output: ProviderOutput)
  /// The runner's own loop on a thread of this process (`--in-process`,
  /// debugging only): there is nothing to kill or reap, and a provider that
  /// hangs keeps its thread after the host gave up on it.
  case inProcess

  /// The descriptors of a runner: the protocol socket as 3, `/dev/null` as
  /// stdin, and `output` as stdout and stderr, so nothing it prints can reach
  /// the host's stdout.
  package static func descriptors(protocol socket: FileDescriptor, output: FileDescriptor) -> [Syscalls.SpawnAction] {
    [
      .duplicate(socket, as: FileDescriptor(rawValue: 3)), .duplicate(output, as: .standardOutput),
      .duplicate(output, as: .standardError), .nullDevice(as: .standardInput),
    ]
  }

  /// Ends the runner at once: kills its process group and reaps it, or, in
  /// process, shuts its socket down so that its loop ends after the call in progress.
  func stop(socket: FileDescriptor) {
    switch self {
    case .sandboxed(let pid, let output):
      Syscalls.kill(-pid, .kill)
      _ = try? Syscalls.wait(pid)
      output.wait(upTo: .milliseconds(200))
    case .inProcess:
      UnixSocket.shutdown(socket)
    }
  }

  /// The crash report the runner's log held, in one line (see `CrashReport`).
  var crashSummary: String? {
    guard case .sandboxed(_, let output) = self else { return nil }
    return output.crashSummary
  }

  /// Stops the request in progress from another thread; only the kernel is touched.
  func interrupt(socket: FileDescriptor) {
    switch self {
    case .sandboxed(let pid, _): Syscalls.kill(-pid, .kill)
    case .inProcess: UnixSocket.shutdown(socket)
    }
  }

  /// Gives a runner whose socket closed up to `waiting` to exit by itself,
  /// then kills what is left of its group; returns how it ended (nil in process).
  func finish(socket: FileDescriptor, waiting: Duration) -> ExitStatus? {
    guard case .sandboxed(let pid, let output) = self else {
      UnixSocket.shutdown(socket)
      return nil
    }
    var status = try? Syscalls.reap(pid, waitingUpTo: waiting)
    Syscalls.kill(-pid, .kill)
    if status == nil { status = try? Syscalls.wait(pid) }
    output.wait(upTo: .milliseconds(200))
    return status.map(ExitStatus.init(waitStatus:))
  }
}
