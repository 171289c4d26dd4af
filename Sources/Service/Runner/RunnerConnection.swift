import RunnerProtocol
import System

/// The request/reply protocol with one runner: its socket, its process, the
/// deadline of every request, and why it ended once it has.
///
/// Nothing the runner sends is trusted (the provider shares its process and
/// may write to the socket itself): a broken frame, a missed deadline or an
/// unexpected reply ends the runner with its whole process group, and every
/// later request fails with the reason.
final class RunnerConnection {
  /// How long each request may take; the resident service sets it per request.
  var timeout: Duration

  private let provider: String
  private let channel: FrameChannel
  private let process: RunnerProcess
  /// The check of the provider's container after the runner ends.
  private let containerCheck: ContainerCheck?
  private(set) var isClosed = false
  /// Why the runner ended, once it has; later requests fail with it.
  private var ending: HostError?

  init(
    provider: String, channel: FrameChannel, process: RunnerProcess, containerCheck: ContainerCheck?, timeout: Duration
  ) {
    self.provider = provider
    self.channel = channel
    self.process = process
    self.containerCheck = containerCheck
    self.timeout = timeout
  }

  /// Whether the runner ended (crashed, exited, missed a deadline, broke a rule).
  var hasEnded: Bool { ending != nil }

  /// The reason the runner ended, if it has.
  func throwIfEnded() throws(HostError) {
    if let ending { throw ending }
  }

  /// Whether part of a frame has arrived.
  var hasPendingInput: Bool { channel.hasPendingInput }

  /// The socket to the runner, to wait on with other descriptors.
  var descriptor: FileDescriptor { channel.fd }

  /// Kills the runner's process group (its pid is the group's): the request
  /// in progress fails as a runner that ended, and the connection stays
  /// consistent, since only the kernel is touched from the other thread.
  var interruption: @Sendable () -> Void { { [process, channel] in process.interrupt(socket: channel.fd) } }

  /// Whether an idle runner may take the next request: it has not ended, and
  /// nothing arrived on its socket since the last reply (a runner that closed
  /// its end, or speaks out of turn, is not trusted with another request).
  var isReady: Bool {
    guard isReadyAsFarAsKnown else { return false }
    return (try? Syscalls.waitReadable(channel.fd, timeout: .zero)) == false
  }

  /// The same without asking the kernel, for a caller whose `poll` found the
  /// socket with nothing to read since the runner's last reply was read.
  var isReadyAsFarAsKnown: Bool { ending == nil && !isClosed && channel.pendingByteCount == 0 }

  /// Sends `request` and returns its reply, by `deadline` (else the
  /// request's timeout from now); `event` gets the events that arrive before it.
  func request(
    _ request: RunnerRequest, deadline: ContinuousClock.Instant? = nil, event: (SceneEvent) -> Void
  ) throws(HostError) -> RunnerReply {
    if let ending { throw ending }
    precondition(!isClosed, "request on a runner the host closed")
    let deadline = deadline ?? ContinuousClock.Instant.after(timeout)
    do { try channel.send(request) } catch { throw failure(error) }
    while true {
      if case .reply(let reply) = try receive(deadline: deadline, event: event) {
        if case .failure(let failure) = reply { throw mapped(failure) }
        return reply
      }
    }
  }

  /// Sends `request` without waiting for its reply: for a runner that takes
  /// its next request while it works (`Capability.translateStream`); the
  /// replies come in the order of the requests (`reply(deadline:event:)`).
  func send(_ request: RunnerRequest) throws(HostError) {
    if let ending { throw ending }
    precondition(!isClosed, "request on a runner the host closed")
    do { try channel.send(request) } catch { throw failure(error) }
  }

  /// The next reply, by `deadline`; `event` gets the events that arrive before it.
  func reply(deadline: ContinuousClock.Instant, event: (SceneEvent) -> Void) throws(HostError) -> RunnerReply {
    if let ending { throw ending }
    while true {
      if case .reply(let reply) = try receive(deadline: deadline, event: event) {
        if case .failure(let failure) = reply { throw mapped(failure) }
        return reply
      }
    }
  }

  /// Receives one frame, handing an event to `event`. The deadline is checked
  /// before every frame, so a provider cannot hold it off with a stream of events.
  func receive(deadline: ContinuousClock.Instant, event: (SceneEvent) -> Void) throws(HostError) -> RunnerMessage {
    guard !deadline.hasPassed else { throw failure(.timedOut) }
    let message: RunnerMessage
    do { message = try channel.receive(RunnerMessage.self, deadline: deadline) } catch { throw failure(error) }
    if case .event(let sceneEvent) = message { event(sceneEvent) }
    return message
  }

  /// Ends the runner: closes the socket, gives it a moment to exit, then
  /// kills its process group, so nothing it started outlives it.
  func close() {
    guard !isClosed else { return }
    isClosed = true
    UnixSocket.shutdown(channel.fd)
    _ = process.finish(socket: channel.fd, waiting: .milliseconds(200))
    disarmContainer()
  }

  /// Once the runner and all it started are gone, its container is checked
  /// from outside (`ContainerCheck`).
  private func disarmContainer() {
    guard let containerCheck, case .sandboxed = process else { return }
    containerCheck.run()
  }

  // MARK: Failures

  /// Kills the runner at once and records `error` as why it ended.
  func end(_ error: RunnerError) -> HostError {
    stop()
    return ended(error)
  }

  /// Ends the runner for breaking the protocol.
  func protocolViolation(_ error: ProtocolError) -> HostError {
    end(.protocolViolation(provider: provider, error))
  }

  /// Ends the runner for a reply that does not answer the request.
  func unexpected(_ reply: RunnerReply) -> HostError {
    protocolViolation(.malformed("unexpected reply \(reply)"))
  }

  private func mapped(_ failure: RunnerFailure) -> HostError {
    let error = RunnerError(failure, provider: provider)
    if case .protocolViolation(_, let problem) = error { return protocolViolation(problem) }
    return error.hostError
  }

  /// Turns a channel failure into what happened to the runner.
  private func failure(_ error: ProtocolError) -> HostError {
    switch error {
    case .timedOut:
      return end(.deadlineExceeded(provider: provider, after: timeout))
    case .closed, .io:
      // The runner closed the socket; it is ending, or pretends to and hangs.
      let status = process.finish(socket: channel.fd, waiting: max(timeout, .milliseconds(50)))
      isClosed = true
      disarmContainer()
      return ended(.ended(provider: provider, status ?? .exited(-1), crash: process.crashSummary))
    default:
      return protocolViolation(error)
    }
  }

  /// Records why the runner is gone, for any later request.
  private func ended(_ error: RunnerError) -> HostError {
    ending = error.hostError
    return error.hostError
  }

  /// Kills the runner's process group at once and reaps it.
  private func stop() {
    guard !isClosed else { return }
    isClosed = true
    process.stop(socket: channel.fd)
    disarmContainer()
  }
}
