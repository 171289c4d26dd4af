import Service
import System

/// The caller's side of `DesktopAgentChannel`: a popover shown by the
/// session's resident desktop agent, which has GTK warm, instead of a
/// `translation-host-desktop run` process that starts GTK.
///
/// When no agent listens, one is started (`translation-host-desktop agent`,
/// which becomes the session's only one on the bus, or leaves when another
/// is there) and waited for. `present` returns nil, and the caller starts a
/// popover process of its own, when there is no runtime folder or session
/// bus, the folder is not safe, the agent cannot be started, does not come
/// within `startTimeout`, or is showing a popover already.
package struct DesktopAgentClient: Sendable {
  /// How long a started agent has to listen (it warms GTK up first). Long:
  /// an agent slower than this is on a machine where a popover process of
  /// the caller's own would start GTK just as slowly, besides the agent's
  /// (`make test`'s busy desktop lanes saw a `run` window now and then at
  /// 10 s, and at 20 s on a day the machine ran at half its speed).
  package static let startTimeout = Duration.seconds(45)

  /// The installation's `translation-host-desktop`, which is the agent.
  package let executable: String
  package let environment: [String: String]
  /// Told of an agent this client started, while it runs (true) and once it has ended (false).
  package let track: @Sendable (_ pid: Int32, _ isRunning: Bool) -> Void

  package init(
    executable: String, environment: [String: String], track: @escaping @Sendable (Int32, Bool) -> Void = { _, _ in }
  ) {
    self.executable = executable
    self.environment = environment
    self.track = track
  }

  /// Shows the popover for `text` with `run`'s `arguments` (`--desktop`,
  /// `--replace`, …; not `--text`) in the agent, and waits for it to close.
  /// `started` is given a closure that closes the popover (usable until
  /// `ending` is called, which happens before the connection is closed).
  /// - Returns: `run`'s outcome, or nil when the agent cannot show it (see above).
  package func present(
    _ arguments: [String], text: String, started: (_ close: @escaping @Sendable () -> Void) -> Void, ending: () -> Void
  ) -> PopoverProcess.Output? {
    guard let fd = connect() else { return nil }
    defer { Syscalls.close(fd) }
    let reply: DesktopAgentChannel.Reply?
    do {
      try Syscalls.writeAll(fd, DesktopAgentChannel.frame(DesktopAgentChannel.Request(arguments: arguments, text: text)))
      started { UnixSocket.shutdown(fd) }
      reply = try DesktopAgentChannel.readFrame(DesktopAgentChannel.Reply.self, from: fd)
    } catch {
      started { UnixSocket.shutdown(fd) }
      reply = nil
    }
    ending()
    guard let reply else {
      // Closed without an answer: by `close` (interrupted, as a killed popover process is), or the agent ended.
      return PopoverProcess.Output(
        status: .signaled(Signal.terminate.rawValue), replacement: "",
        stderr: "Error: the desktop agent closed the popover without an answer")
    }
    guard !reply.busy, let status = reply.status else { return nil }
    return PopoverProcess.Output(status: .exited(status), replacement: reply.replacement, stderr: reply.stderr)
  }

  /// A connection to the agent, started if none listens; nil when there is none to be had.
  private func connect() -> FileDescriptor? {
    guard let location = ServiceLocation.standard(environment: environment),
      let runtime = environment["XDG_RUNTIME_DIR"],
      !(environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty || Self.exists(runtime + "/bus")
    else { return nil }
    // A folder another user could have made is not trusted with the text (the agent makes a missing one).
    if Self.exists(location.folder), (try? location.checkFolder()) == nil { return nil }
    let path = location.folder + "/" + DesktopAgentChannel.socketName
    if let fd = Self.connected(to: path) { return fd }
    // Armed before the agent starts, so the socket it makes is not missed.
    var watch = try? FileWatch(paths: [path])
    guard let agent = startAgent() else { return nil }
    let deadline = ContinuousClock.Instant.after(Self.startTimeout)
    while !deadline.hasPassed {
      if let fd = Self.connected(to: path) { return fd }
      // Another agent had the bus name, so this one left; that one may not listen (an older one).
      if agent.ended.value { return Self.connected(to: path) }
      if let armed = watch {
        // Woken when the socket's path changes or the agent ends; armed again after a change.
        if armed.waitForChange(until: deadline, orReadable: agent.exited.descriptor) {
          watch = try? FileWatch(paths: [path])
        }
      } else {
        Syscalls.sleep(for: .milliseconds(20))  // no inotify (no instances left): look again now and then
      }
    }
    return nil
  }

  /// Starts an agent; the flag is set, and the descriptor woken, once it has ended.
  private func startAgent() -> (ended: AtomicFlag, exited: WakeDescriptor)? {
    guard let exited = try? WakeDescriptor() else { return nil }
    guard
      let pid = try? Syscalls.spawn(
        executable, arguments: ["agent"], environment: environment.map { "\($0.key)=\($0.value)" },
        actions: [.nullDevice(as: .standardInput), .nullDevice(as: .standardOutput), .nullDevice(as: .standardError)],
        newSession: true)
    else { return nil }
    track(pid, true)
    let track = track
    let ended = AtomicFlag()
    DetachedThread.start(name: "desktop agent") {
      _ = try? Syscalls.wait(pid)
      ended.value = true
      exited.wake()
      track(pid, false)
    }
    return (ended, exited)
  }

  /// A connection to `path` whose peer is this user; nil when nothing listens there.
  private static func connected(to path: String) -> FileDescriptor? {
    guard let fd = try? UnixSocket.connect(to: path) else { return nil }
    guard let peer = try? UnixSocket.peerCredentials(fd), peer.uid == FileStatus.currentUser else {
      Syscalls.close(fd)
      return nil
    }
    return fd
  }

  private static func exists(_ path: String) -> Bool { (try? FileStatus(path: path, followingLinks: true)) != nil }
}
