import CGtk
import Core
import FoundationEssentials
import Presentation
import Service
import System

/// The desktop agent's side of `DesktopAgentChannel`: it listens at
/// `$XDG_RUNTIME_DIR/translation-host/desktop-agent` (mode 0600, in the
/// service's 0700 folder) from the main loop, admits connections of this
/// user only and of no provider runner (nor anything a runner started), and
/// reads each request on a thread of its own (a caller that sends nothing
/// holds no one up), then hands it to `receive` on the main thread.
final class AgentSocket {
  /// One request as read: the connection and what came on it.
  final class Incoming {
    let fd: FileDescriptor
    let request: DesktopAgentChannel.Request?
    init(fd: FileDescriptor, request: DesktopAgentChannel.Request?) {
      self.fd = fd
      self.request = request
    }
  }

  /// How long a caller has to send its request once connected.
  static let requestTimeout = Duration.seconds(10)

  let path: String
  private let listener: FileDescriptor
  private let receive: (Incoming) -> Void
  private let note: (String) -> Void
  private var source: UInt32 = 0

  /// Listens at the socket of `environment` (a socket left by an agent that
  /// ended is replaced); nil, with a note saying why, when it cannot.
  init?(environment: [String: String], note: @escaping (String) -> Void, receive: @escaping (Incoming) -> Void) {
    guard let location = ServiceLocation.standard(environment: environment) else {
      note("XDG_RUNTIME_DIR is unset: the agent shows no popover for the service or apps (Present)")
      return nil
    }
    path = location.folder + "/" + DesktopAgentChannel.socketName
    do {
      try location.prepareFolder()
      if (try? FileStatus(path: path, followingLinks: false))?.isSocket == true {
        if let probe = try? UnixSocket.connect(to: path) {
          Syscalls.close(probe)
          note("another desktop agent listens at \(path); this one shows no popover for the service or apps")
          return nil
        }
        UnixSocket.unlink(path)
      }
      listener = try UnixSocket.listen(at: path)
    } catch {
      note("cannot listen at \(path): \(error); the agent shows no popover for the service or apps (Present)")
      return nil
    }
    self.note = note
    self.receive = receive
    source = g_unix_fd_add_full(
      G_PRIORITY_DEFAULT, listener.rawValue, G_IO_IN, Self.onConnection, Unmanaged.passUnretained(self).toOpaque(), nil)
  }

  deinit {
    if source != 0 { g_source_remove(source) }
    Syscalls.close(listener)
    UnixSocket.unlink(path)
  }

  private func accept() {
    guard let fd = try? UnixSocket.accept(listener) else { return }
    guard let peer = try? UnixSocket.peerCredentials(fd), peer.uid == FileStatus.currentUser else {
      note("refused a connection to \(path) from another user")
      Syscalls.close(fd)
      return
    }
    if Self.comesFromRunner(peer.pid) {
      note("refused a connection to \(path) from pid \(peer.pid): a provider runner, or a process started by one")
      Syscalls.close(fd)
      return
    }
    let handOver = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
    DetachedThread.start(name: "agent request") {
      var request: DesktopAgentChannel.Request?
      if let ready = try? UnixSocket.waitReadable([fd], timeout: Self.requestTimeout), ready.first == true {
        request = try? DesktopAgentChannel.readFrame(DesktopAgentChannel.Request.self, from: fd)
      }
      let incoming = Unmanaged.passRetained(Incoming(fd: fd, request: request)).toOpaque()
      // To the main thread; `handOver` outlives the loop, as the agent keeps this socket until it ends.
      let box = Unmanaged.passRetained(Pair(socket: UnsafeMutableRawPointer(bitPattern: handOver)!, incoming: incoming))
        .toOpaque()
      g_idle_add_full(G_PRIORITY_DEFAULT, Self.onRequest, box, nil)
    }
  }

  private final class Pair {
    let socket: UnsafeMutableRawPointer
    let incoming: UnsafeMutableRawPointer
    init(socket: UnsafeMutableRawPointer, incoming: UnsafeMutableRawPointer) {
      self.socket = socket
      self.incoming = incoming
    }
  }

  /// Whether `pid` is a provider runner or was started by one: a provider
  /// must not show the person popovers through the agent.
  static func comesFromRunner(_ pid: Int32) -> Bool {
    var current = pid
    for _ in 0..<64 {
      guard current > 1 else { return false }
      if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(current)/exe"),
        exe.hasSuffix("/translation-provider-runner")
      {
        return true
      }
      guard let parent = ProcessLineage.parent(of: current) else { return true }
      current = parent
    }
    return true
  }

  /// Sends `reply` on `fd` and closes it.
  static func answer(_ fd: FileDescriptor, _ reply: DesktopAgentChannel.Reply) {
    if let frame = try? DesktopAgentChannel.frame(reply) { try? Syscalls.writeAll(fd, frame) }
    Syscalls.close(fd)
  }

  // MARK: C callbacks

  private static let onConnection: GUnixFDSourceFunc = { _, _, data in
    Unmanaged<AgentSocket>.fromOpaque(data!).takeUnretainedValue().accept()
    return 1
  }

  private static let onRequest: GSourceFunc = { data in
    let pair = Unmanaged<Pair>.fromOpaque(data!).takeRetainedValue()
    let incoming = Unmanaged<Incoming>.fromOpaque(pair.incoming).takeRetainedValue()
    Unmanaged<AgentSocket>.fromOpaque(pair.socket).takeUnretainedValue().receive(incoming)
    return 0
  }
}
