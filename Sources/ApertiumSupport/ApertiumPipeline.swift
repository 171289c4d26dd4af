import FoundationEssentials
import System

/// One warm Apertium pipeline for one pair, in null-flush mode: each request
/// is the deformatted text followed by `\0`, and the translation comes back
/// followed by `\0`. Started once (`apertium-wblank-mode -z` without its
/// word-bound blank stages: 11 processes for eng-spa), it answers in about a
/// millisecond instead of the ~130 ms that a cold `apertium` spends starting them.
///
/// One thread at a time per pipeline (the engine sees to it); it may move
/// between threads, hence `@unchecked Sendable`.
public final class ApertiumPipeline: @unchecked Sendable {
  public let pair: ApertiumPair
  /// Whether unknown words keep Apertium's marks (`*`, and `#` where
  /// generation failed), as `apertium` prints them; without, the pipeline
  /// generates as `apertium -u` does (lt-proc `-n` instead of `-g`).
  public let marksUnknownWords: Bool
  /// What every stage loads.
  public let stagePreload: ApertiumStagePreload
  private var pid: Int32 = 0
  /// The pipeline's stdin (non-blocking) and stdout, while it runs.
  private var input = FileDescriptor(rawValue: -1)
  private var output = FileDescriptor(rawValue: -1)
  private var received: [UInt8] = []
  /// Texts stop joining a flush once it holds this many bytes: a long text
  /// is a flush of its own, and a flush's translations are not held back long.
  static let flushBytes = 8 * 1024
  /// No more texts are taken while this many bytes wait to be written: the
  /// stages' pipes hold far less, and a window of long texts (512 of a
  /// megabyte) must not be copied into memory at once.
  static let pendingBytes = 256 * 1024

  /// Starts the pipeline for `pair`.
  public init(
    pair: ApertiumPair, marksUnknownWords: Bool = true, stagePreload: ApertiumStagePreload = .none
  ) throws(ApertiumError) {
    self.pair = pair
    self.marksUnknownWords = marksUnknownWords
    self.stagePreload = stagePreload
    // A pipeline that dies must not take the process down when we write to it.
    Signal.brokenPipe.ignore()
    try start()
  }

  deinit { stop() }

  /// Whether the pipeline's processes are still there. A pipeline found to
  /// have ended is reaped and forgotten, so its process id is never reused.
  public var isRunning: Bool {
    guard pid > 0 else { return false }
    guard hasEnded() else { return true }
    pid = 0
    Syscalls.close(input)
    Syscalls.close(output)
    received.removeAll()
    return false
  }

  /// The process whose children are the stages (0: not running). For tests
  /// that act on this pipeline's stages and on no other's.
  var processID: Int32 { pid }

  /// Translates each text, pipelined: all requests are written while the
  /// answers are read, so the engine never waits for the host.
  /// - Throws: `ApertiumError.pipelineFailed` if the pipeline ends or stays
  ///   silent for `timeout`; the pipeline is then stopped.
  public func translate(
    _ texts: [String], textsPerFlush: Int = 1, timeout: Duration = .seconds(20)
  ) throws(ApertiumError) -> [String] {
    var answers = [String?](repeating: nil, count: texts.count)
    var next = texts.startIndex
    try stream(window: texts.count, textsPerFlush: textsPerFlush, timeout: timeout) {
      guard next < texts.endIndex else { return nil }
      defer { next += 1 }
      return (next - texts.startIndex, texts[next])
    } deliver: { index, answer in
      answers[index] = answer
    }
    return answers.map { $0 ?? "" }
  }

  /// Streams texts through the pipeline: takes texts from `next` whenever
  /// fewer than `window` null flushes are in it, up to `textsPerFlush` texts
  /// (and about `flushBytes`) to a flush, and hands each translation to
  /// `deliver` with the index `next` gave its text. Several pipelines fed
  /// from one source share a batch by their own pace (one slowed by load
  /// takes fewer texts) and end within `window` flushes of each other; a
  /// pipeline fed without pause never drains between flushes.
  ///
  /// Texts sharing a flush are separated by `ApertiumText.textBreak`, each
  /// with its own sentence end, as in a file given to `apertium`: every stage
  /// flushes once for them all (a flush costs each of the 11 stages a write
  /// and a wake-up). A flush whose answer does not split into one
  /// translation per text (a stage moved a text break) has its texts
  /// translated again, one per flush, at the end. Texts sharing a flush are
  /// not independent (a text ending in "Mr" runs into the next; the transfer
  /// stages keep variables until the flush ends): the engine sends one per
  /// flush (`ApertiumEngine.textsPerFlush`).
  ///
  /// An open source (`wake` gives a descriptor) may have no text now and
  /// more later: `next` is asked again at every turn of the loop and whenever
  /// the descriptor becomes readable, and the stream ends once nothing is in
  /// the pipeline and `next` has nothing (the caller calls again when more
  /// comes). `wake` is asked at each turn; nil: nothing more will come.
  /// - Throws: `ApertiumError.pipelineFailed` if the pipeline ends or stays
  ///   silent for `timeout`; the pipeline is then stopped. Texts taken and not
  ///   delivered are lost: the caller tries the whole batch again.
  public func stream(
    window: Int, textsPerFlush: Int = 1, timeout: Duration = .seconds(20), wake: () -> Int32? = { nil },
    next: () -> (index: Int, text: String)?, deliver: (Int, String) -> Void
  ) throws(ApertiumError) {
    guard pid > 0 else { throw .pipelineFailed(mode: pair.mode, reason: "not running") }
    var payload: [UInt8] = []
    var written = 0
    /// The texts of each flush in the pipeline, oldest first, from `oldest` on
    /// (those before it are answered: removing them one by one from the front
    /// would move the whole window each time).
    var flushes: [[(index: Int, text: String)]] = []
    var oldest = 0
    var unsplit: [(index: Int, text: String)] = []
    var exhausted = false
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    // Refilled when half the window has come back, not at each answer: the
    // stages then read many flushes a wake-up, as from a file (one text a
    // flush, refilled at each answer, took a quarter more CPU than `apertium`).
    let lowWater = max(window / 2, 1)
    while true {
      let wakeDescriptor = wake().map { FileDescriptor(rawValue: $0) }
      if wakeDescriptor != nil { exhausted = false }
      while !exhausted && flushes.count - oldest < max(window, 1)
        && (flushes.count - oldest < lowWater || written < payload.count)
        && payload.count - written < Self.pendingBytes
      {
        var flush: [(index: Int, text: String)] = []
        let start = payload.count
        while flush.count < max(textsPerFlush, 1) && payload.count - start < Self.flushBytes, let item = next() {
          if !flush.isEmpty { payload += ApertiumText.textBreak }
          ApertiumText.deformat(item.text, into: &payload)
          flush.append(item)
        }
        guard !flush.isEmpty else {
          exhausted = true
          break
        }
        payload.append(0)
        flushes.append(flush)
      }
      if flushes.count == oldest && exhausted {
        guard !unsplit.isEmpty else { return }
        var retry = unsplit.makeIterator()
        unsplit = []
        return try stream(window: window, textsPerFlush: 1, timeout: timeout, next: { retry.next() }, deliver: deliver)
      }
      var waitingFor = [(output, PollEvents.readable)]
      if written < payload.count { waitingFor.append((input, .writable)) }
      // More texts may come while these are in flight: woken for them too
      // (the loop's next turn asks for them), not only by an answer.
      if let wakeDescriptor, flushes.count - oldest < max(window, 1) {
        waitingFor.append((wakeDescriptor, .readable))
      }
      let ready: [PollEvents]
      do throws(Errno) { ready = try Syscalls.poll(waitingFor, timeout: timeout) } catch {
        throw fail(error.description)
      }
      guard ready.contains(where: { !$0.isEmpty }) else { throw fail("no answer within \(timeout.readable)") }
      if written < payload.count && !ready[1].isEmpty {
        do throws(Errno) {
          written += try payload.withUnsafeBytes { bytes in
            Result { () throws(Errno) in try Syscalls.write(input, UnsafeRawBufferPointer(rebasing: bytes[written...])) }
          }.get()
        } catch {
          if error != .wouldBlock { throw fail("cannot write: \(error)") }
        }
        if written == payload.count {
          payload.removeAll(keepingCapacity: true)
          written = 0
        }
      }
      if !ready[0].isEmpty {
        let count: Int
        do throws(Errno) { count = try Syscalls.read(output, into: &chunk) } catch {
          if error == .wouldBlock { continue }
          throw fail("the pipeline ended")
        }
        guard count > 0 else { throw fail("the pipeline ended") }
        received += chunk[0..<count]
        var start = received.startIndex
        while oldest < flushes.count, let end = received[start...].firstIndex(of: 0) {
          // Every text ends in a sentence break, so an answer is never empty:
          // an empty one is what the stages after one that died flush as they end.
          guard end > start else { throw fail("a stage of the pipeline ended") }
          let flush = flushes[oldest]
          oldest += 1
          let answer = received[start..<end]
          start = end + 1
          guard flush.count > 1 else {
            deliver(flush[0].index, ApertiumText.reformat(answer))
            continue
          }
          let translations = ApertiumText.reformatTexts(answer)
          guard translations.count == flush.count else {
            unsplit += flush
            continue
          }
          for (item, translation) in zip(flush, translations) { deliver(item.index, translation) }
        }
        received.removeSubrange(..<start)
        if oldest == flushes.count || oldest >= 1024 {
          flushes.removeSubrange(..<oldest)
          oldest = 0
        }
      }
    }
  }

  /// Closes the pipeline's input, which ends each stage in turn, and reaps
  /// it: SIGTERM, up to a second's grace, then SIGKILL. (Its stages cannot be
  /// put in a process group of their own inside the runner's sandbox; those
  /// that outlive it end on the closed pipes, or with the runner's namespace.)
  public func stop() {
    guard pid > 0 else { return }
    Syscalls.close(input)
    Syscalls.close(output)
    Syscalls.kill(pid, .terminate)
    let reaped: Bool
    do { reaped = try Syscalls.reap(pid, waitingUpTo: .seconds(1)) != nil } catch { reaped = true }
    if !reaped {
      Syscalls.kill(pid, .kill)
      _ = try? Syscalls.wait(pid)
    }
    pid = 0
    received.removeAll()
  }

  /// Whether the pipeline's first process has ended, and is reaped (or cannot be waited for).
  private func hasEnded() -> Bool {
    do { return try Syscalls.reap(pid) != nil } catch { return true }
  }

  private func fail(_ reason: String) -> ApertiumError {
    stop()
    return .pipelineFailed(mode: pair.mode, reason: reason)
  }

  private func start() throws(ApertiumError) {
    // Socket pairs rather than pipes: they are close-on-exec from birth, so a
    // process started at the same moment on another thread cannot inherit them.
    let toPipeline: (FileDescriptor, FileDescriptor)
    let fromPipeline: (FileDescriptor, FileDescriptor)
    do throws(Errno) {
      toPipeline = try Syscalls.socketPair()
      do throws(Errno) { fromPipeline = try Syscalls.socketPair() } catch {
        Syscalls.close(toPipeline.0)
        Syscalls.close(toPipeline.1)
        throw error
      }
    } catch {
      throw .startFailed(mode: pair.mode, reason: error.description)
    }
    try? Syscalls.setNonBlocking(toPipeline.1)

    // The mode file is an argument, never part of the script: its name is not trusted.
    // `$2` becomes the mode's `$1`: lt-proc's generation option, as the `apertium` script sets it.
    // The stages run in the background of a shell that then lets go of the
    // pipeline's ends and waits, so that when a stage dies the output ends
    // at once (a shell holding it kept it open until the silence timed out).
    // `<&0` keeps the first stage's input: a background command's stdin
    // would be /dev/null, but not one with a redirection of its own. (So a
    // mode must begin with a simple command, as every mode of Apertium's
    // own tools does: before `(` or `{` the redirection is a syntax error,
    // and such a pipeline ends at once, which the first request reports.)
    // The word-bound blank stages `apertium-wblank-mode` adds are left out:
    // they act only on `[[…]]` blanks, which `ApertiumText.deformat` never
    // writes (it escapes a text's `[`; its superblanks hold blanks only), so
    // they would copy every byte through two more processes and wake-ups
    // per text unchanged (`ApertiumEngineTests` compares with `apertium`).
    let script = #"""
      mode=$(apertium-wblank-mode -z "$1") || exit
      mode=${mode//' | apertium-wblank-attach |'/' |'}
      mode=${mode//' | apertium-wblank-detach |'/' |'}
      exec bash -c 'eval "<&0 $0 &"; exec 0<&- 1>&-; wait' "$mode" "$2"
      """#
    var environment = ProcessInfo.processInfo.environment
    environment["LC_ALL"] = "C.UTF-8"
    environment["LD_PRELOAD"] = stagePreload.environmentValue(after: environment["LD_PRELOAD"])
    defer {
      Syscalls.close(toPipeline.0)
      Syscalls.close(fromPipeline.1)
    }
    do throws(Errno) {
      pid = try Syscalls.spawn(
        "/bin/bash", arguments: ["-c", script, "apertium", pair.modeFile, marksUnknownWords ? "-g" : "-n"],
        environment: environment.map { "\($0.key)=\($0.value)" },
        actions: [.duplicate(toPipeline.0, as: .standardInput), .duplicate(fromPipeline.1, as: .standardOutput)],
        newSession: false)
    } catch {
      Syscalls.close(toPipeline.1)
      Syscalls.close(fromPipeline.0)
      pid = 0
      throw .startFailed(mode: pair.mode, reason: error.description)
    }
    input = toPipeline.1
    output = fromPipeline.0
  }
}
