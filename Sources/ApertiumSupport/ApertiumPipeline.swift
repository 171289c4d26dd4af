import FoundationEssentials
import Glibc

/// One warm Apertium pipeline for one pair, in null-flush mode: each request
/// is the deformatted text followed by `\0`, and the translation comes back
/// followed by `\0`. Started once (`apertium-wblank-mode -z`, 13 processes for
/// eng-spa), it answers in about a millisecond instead of the ~130 ms that a
/// cold `apertium` spends starting them.
///
/// One thread at a time per pipeline (the engine sees to it); it may move
/// between threads, hence `@unchecked Sendable`.
public final class ApertiumPipeline: @unchecked Sendable {
  public let pair: ApertiumPair
  private var pid: pid_t = 0
  private var input: Int32 = -1
  private var output: Int32 = -1
  private var received: [UInt8] = []

  /// Starts the pipeline for `pair`.
  public init(pair: ApertiumPair) throws(ApertiumError) {
    self.pair = pair
    // A pipeline that dies must not take the process down when we write to it.
    signal(SIGPIPE, SIG_IGN)
    try start()
  }

  deinit { stop() }

  /// Whether the pipeline's processes are still there. A pipeline found to
  /// have ended is reaped and forgotten, so its process id is never reused.
  public var isRunning: Bool {
    guard pid > 0 else { return false }
    var status: Int32 = 0
    guard waitpid(pid, &status, WNOHANG) != 0 else { return true }
    pid = 0
    close(input)
    close(output)
    received.removeAll()
    return false
  }

  /// Translates each text, pipelined: all requests are written while the
  /// answers are read, so the engine never waits for the host.
  /// - Throws: `ApertiumError.pipelineFailed` if the pipeline ends or stays
  ///   silent for `timeout` seconds; the pipeline is then stopped.
  public func translate(_ texts: [String], timeout: Double = 20) throws(ApertiumError) -> [String] {
    guard pid > 0 else { throw .pipelineFailed(mode: pair.mode, reason: "not running") }
    var payload: [UInt8] = []
    for text in texts {
      payload += ApertiumText.deformat(text).utf8
      payload.append(0)
    }
    var written = 0
    var answers: [String] = []
    answers.reserveCapacity(texts.count)
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while answers.count < texts.count {
      var fds = [pollfd(fd: output, events: Int16(POLLIN), revents: 0)]
      if written < payload.count { fds.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0)) }
      let ready = poll(&fds, nfds_t(fds.count), Int32(timeout * 1000))
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { throw fail(ready == 0 ? "no answer within \(Int(timeout)) s" : String(cString: strerror(errno))) }
      if fds.count > 1 && fds[1].revents != 0 {
        let count = payload.withUnsafeBytes { write(input, $0.baseAddress! + written, $0.count - written) }
        if count < 0 && errno != EAGAIN && errno != EINTR { throw fail("cannot write: \(String(cString: strerror(errno)))") }
        if count > 0 { written += count }
      }
      if fds[0].revents != 0 {
        let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
        guard count > 0 else { throw fail("the pipeline ended") }
        received += chunk[0..<count]
        var start = received.startIndex
        while answers.count < texts.count, let end = received[start...].firstIndex(of: 0) {
          answers.append(ApertiumText.reformat(String(decoding: received[start..<end], as: UTF8.self)))
          start = end + 1
        }
        received.removeSubrange(..<start)
      }
    }
    return answers
  }

  /// Closes the pipeline's input, which ends each stage in turn, and reaps
  /// it: SIGTERM, up to a second's grace, then SIGKILL. (Its stages cannot be
  /// put in a process group of their own inside the runner's sandbox; those
  /// that outlive it end on the closed pipes, or with the runner's namespace.)
  public func stop() {
    guard pid > 0 else { return }
    close(input)
    close(output)
    kill(pid, SIGTERM)
    var status: Int32 = 0
    var reaped = false
    for _ in 0..<100 where !reaped {
      reaped = waitpid(pid, &status, WNOHANG) != 0
      if !reaped { usleep(10_000) }
    }
    if !reaped {
      kill(pid, SIGKILL)
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
    pid = 0
    received.removeAll()
  }

  private func fail(_ reason: String) -> ApertiumError {
    stop()
    return .pipelineFailed(mode: pair.mode, reason: reason)
  }

  private func start() throws(ApertiumError) {
    // Socket pairs rather than pipes: they are close-on-exec from birth, so a
    // process started at the same moment on another thread cannot inherit them.
    var toPipeline: [Int32] = [-1, -1]
    var fromPipeline: [Int32] = [-1, -1]
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    guard socketpair(AF_UNIX, type, 0, &toPipeline) == 0 else {
      throw .startFailed(mode: pair.mode, reason: String(cString: strerror(errno)))
    }
    guard socketpair(AF_UNIX, type, 0, &fromPipeline) == 0 else {
      close(toPipeline[0])
      close(toPipeline[1])
      throw .startFailed(mode: pair.mode, reason: String(cString: strerror(errno)))
    }
    _ = fcntl(toPipeline[1], F_SETFL, fcntl(toPipeline[1], F_GETFL) | O_NONBLOCK)

    // The mode file is an argument, never part of the script: its name is not trusted.
    let script = #"exec bash -c "$(apertium-wblank-mode -z "$1")" apertium -g """#
    var environment = ProcessInfo.processInfo.environment
    environment["LC_ALL"] = "C.UTF-8"
    defer {
      close(toPipeline[0])
      close(fromPipeline[1])
    }
    do {
      pid = try ChildProcess.spawn(
        "/bin/bash", ["-c", script, "apertium", pair.modeFile],
        environment: environment.map { "\($0.key)=\($0.value)" }, stdin: toPipeline[0], stdout: fromPipeline[1])
    } catch {
      close(toPipeline[1])
      close(fromPipeline[0])
      pid = 0
      throw .startFailed(mode: pair.mode, reason: error.reason)
    }
    input = toPipeline[1]
    output = fromPipeline[0]
  }
}
