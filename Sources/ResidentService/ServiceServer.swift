import FoundationEssentials
import Glibc
import RunnerProtocol
import Service
import Synchronization
import System

/// `translation-host serve`: accepts connections on the per-user socket,
/// checks who is calling, and serves each connection on a thread of its own
/// with runners from one `RunnerPool`.
///
/// Stopping (`stop()`, on SIGTERM) closes the listening socket first, so no
/// new connection is accepted; lets every connection finish the request it is
/// serving and answer it; closes the connections, then the runners; and
/// removes the socket file if the service made it.
package final class ServiceServer: @unchecked Sendable {
  /// The service's limits.
  package struct Configuration: Sendable {
    /// How long a runner may stay idle before it is closed.
    package var idleTimeout: Duration = .seconds(300)
    /// Warm runners per provider at most; more requests for it wait.
    package var runnersPerProvider = max(2, ProcessInfo.processInfo.activeProcessorCount)
    /// Batches a runner whose provider streams (`Capability.translateStream`)
    /// holds at once: its next batch goes in before the last is answered, so
    /// its engine does not drain between them.
    package var batchesPerRunner = 2
    /// Runners per provider held by open scenes (popovers) at most, apart
    /// from `runnersPerProvider`; more scenes for it wait, then fail as busy.
    package var scenesPerProvider = 16
    /// Connections at work at once (a request arriving or being served, or
    /// a scene open); a new one beyond takes the place of the connection
    /// idle longest, and is refused only when none is idle (`ConnectionTable`).
    package var maximumConnections = 128
    /// How long a connection may wait for its next request, with no scene
    /// open, before it is closed; the client reconnects when it needs to.
    package var connectionIdleTimeout: Duration = .seconds(60)
    /// How long a request that has begun to arrive has to arrive whole.
    package var requestArrival: Duration = .seconds(10)
    /// The longest deadline a client may ask for.
    package var maximumTimeout: Duration = .seconds(600)

    package init() {}
  }

  let configuration: Configuration
  let pool: RunnerPool
  /// Headless requests for the same provider and pair, batched while its runners are busy.
  let coalescer: TranslationCoalescer
  let resolutions: ResolutionCache
  let context: String
  /// The context of an app that leaves the installation to the service
  /// (`ServiceContext.deferringInstallation`), which it serves too.
  let deferredContext: String
  /// The service's environment: what it resolves providers and languages with.
  let environment: [String: String]
  /// The `translation-host run` processes that show a popover for a D-Bus
  /// caller (`Present`): the service's own children, which may use it, unlike
  /// its runners and whatever they start.
  let presentationProcesses = Mutex<Set<Int32>>([])
  /// Becomes readable (and stays so) when the service stops.
  let stopSignal: FileDescriptor
  private let stopTrigger: FileDescriptor
  private let listener: FileDescriptor
  private let socketPath: String?
  private let log: @Sendable (String) -> Void
  private let state = Condition()
  private var stopping = false
  let connections: ConnectionTable

  /// Serves on `listener`, a listening socket; `socketPath`, when given, is
  /// removed on stop (nil when socket activation owns the file).
  package init(
    listener: FileDescriptor, socketPath: String?, configuration: Configuration, environment: [String: String],
    log: @escaping @Sendable (String) -> Void
  ) throws(ServiceError) {
    self.listener = listener
    self.socketPath = socketPath
    self.configuration = configuration
    self.log = log
    pool = RunnerPool(
      runnersPerProvider: configuration.runnersPerProvider, scenesPerProvider: configuration.scenesPerProvider,
      idleTimeout: configuration.idleTimeout)
    coalescer = TranslationCoalescer(runnersPerProvider: configuration.runnersPerProvider)
    resolutions = ResolutionCache(environment: environment)
    self.environment = environment
    connections = ConnectionTable(limit: configuration.maximumConnections)
    context = ServiceContext.current(environment: environment)
    deferredContext = ServiceContext.deferringInstallation(environment: environment)
    do { (stopSignal, stopTrigger) = try Syscalls.socketPair() } catch { throw .socketFailed("(stop signal)", error) }
  }

  /// Whether `stop()` was called.
  var isStopping: Bool {
    state.lock()
    defer { state.unlock() }
    return stopping
  }

  /// Starts stopping; `run()` returns once everything is closed. Any thread.
  package func stop() {
    state.lock()
    let first = !stopping
    stopping = true
    state.unlock()
    if first {
      var byte: UInt8 = 1
      _ = withUnsafeBytes(of: &byte) { try? Syscalls.writeAll(stopTrigger, $0) }
    }
  }

  /// Accepts connections until `stop()`, then shuts down as described above.
  package func run() {
    // Runners idle too long are closed from here, once a second at most.
    let reapInterval = min(.seconds(1), max(.milliseconds(50), configuration.idleTimeout / 4))
    var loggedDescriptorShortage = false
    while true {
      guard let ready = try? UnixSocket.waitReadable([listener, stopSignal], timeout: reapInterval) else { continue }
      if ready[1] { break }
      pool.closeIdleRunners()
      guard ready[0] else { continue }
      do {
        admit(try UnixSocket.accept(listener))
      } catch  where [EMFILE, ENFILE].contains(error.rawValue) {
        // The connection stays queued, so the listener stays readable: wait
        // for descriptors to be freed instead of spinning on it.
        if !loggedDescriptorShortage {
          log("cannot accept a connection: \(error); waiting for connections to close (logged once)")
          loggedDescriptorShortage = true
        }
        Syscalls.sleep(for: .milliseconds(100))
      } catch {
        continue  // the client left before it was accepted (ECONNABORTED and the like)
      }
    }
    Syscalls.close(listener)
    if let socketPath { UnixSocket.unlink(socketPath) }
    let open = connections.count
    if open > 0 { log("stopping: finishing \(open) connection(s)") }
    connections.waitUntilEmpty()
    pool.close()
    log("stopped")
  }

  /// Checks the peer and the limits, then serves the connection on its own thread.
  private func admit(_ fd: FileDescriptor) {
    let own = FileStatus.currentUser
    guard let peer = try? UnixSocket.peerCredentials(fd), peer.uid == own else {
      let who = (try? UnixSocket.peerCredentials(fd)).map { "uid \($0.uid) (pid \($0.pid))" } ?? "an unknown peer"
      log("refused a connection from \(who): not uid \(own)")
      refuse(fd, "it comes from \(who), and this service serves uid \(own) only")
      return
    }
    // Runners are the service's children: a provider (or a process it
    // started) must not have the service run what it asks, such as a bundle
    // it wrote that declares network access, outside its own sandbox.
    switch ProcessLineage.descends(peer.pid, from: Syscalls.processID) {
    case false?: break
    case true? where presentationProcesses.withLock({ $0.contains(peer.pid) }): break
    case true?:
      log("refused a connection from pid \(peer.pid): it is a provider runner of this service, or was started by one")
      refuse(
        fd,
        "it comes from pid \(peer.pid), a provider runner of this service or a process started by one; providers may not use the service"
      )
      return
    case nil:
      log("refused a connection from pid \(peer.pid): its parent processes could not be read from /proc")
      refuse(
        fd, "the service could not tell which process pid \(peer.pid) is (it could not read its parents from /proc); try again")
      return
    }
    guard connections.admit(fd) else {
      refuse(fd, "all \(configuration.maximumConnections) connections are at work (--max-connections); try again in a moment")
      return
    }
    DetachedThread.start(name: "connection") { [self] in
      // The connection closes its descriptor when it goes, after leaving the table.
      ServiceConnection(fd: fd, server: self).serve()
    }
  }

  /// Answers a connection that will not be served with one failure, and closes it.
  private func refuse(_ fd: FileDescriptor, _ reason: String) {
    let channel = FrameChannel(fd: fd)
    try? channel.send(ServiceReply.failure(ServiceError.refused(reason).hostError))
    // What the peer already sent is read and dropped: closing a Unix socket
    // with unread data would make the peer's read fail before it sees the reply.
    UnixSocket.discardPending(fd)
  }
}
