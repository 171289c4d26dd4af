import CTranslationProvider
import RunnerProtocol
import System

/// Consecutive `translate` requests of the host for one language pair,
/// served by one open batch of a provider with `tp.translate.stream/1`: while
/// the provider works, the texts of requests that arrived since are handed
/// to it, and each request is answered as soon as all its texts are, in the
/// order the requests came. A request for anything else (another pair, an
/// empty batch, a scene) closes the stream and waits until the provider's
/// call returns (`deferred`).
///
/// `next` and `deliver` are called by the provider, from any thread but one
/// at a time (the ABI's rule); the socket is not read by anyone else while
/// the provider's call runs on the runner's thread.
final class RunnerTranslationStream {
  private struct Pending {
    let first: Int
    let count: Int
    var answers: [[UInt8]?]
    var remaining: Int
  }

  let source: String
  let target: String
  private let channel: FrameChannel
  /// Requests not answered yet, oldest first.
  private var requests: [Pending] = []
  /// Texts not taken by the provider yet, with their indexes.
  private var queue: [(index: Int, text: [UInt8])] = []
  private var queueStart = 0
  private var nextIndex = 0
  /// Indexes taken by the provider and not answered.
  private var taken = Set<Int>()
  /// The text `next` last gave: the provider may read it until the next call.
  private var lent = UnsafeMutableBufferPointer<CChar>.allocate(capacity: 1)
  /// Why the provider's answers cannot be used, once it broke a rule.
  private var problem: String?
  private var isClosed = false
  /// A request that is not part of the stream, to answer after it.
  private(set) var deferred: RunnerRequest?
  /// How reading the socket failed (the host went away), if it did.
  private(set) var channelFailure: ProtocolError?
  /// How a reply could not be sent, if one could not.
  private(set) var sendFailure: ProtocolError?

  init(channel: FrameChannel, source: String, target: String, texts: [String]) {
    self.channel = channel
    self.source = source
    self.target = target
    add(texts)
  }

  deinit { lent.deallocate() }

  /// Whether texts are waiting that the provider did not take.
  var hasUntakenTexts: Bool { queueStart < queue.count }

  /// How many texts the provider took so far (to see whether a call made progress).
  var takenCount: Int { nextIndex - (queue.count - queueStart) }

  /// The provider's `next`: 1 with a text, 0 when none is there now, -1 when no more will come.
  func next(index: inout Int, text: inout tp_string) -> Int32 {
    if queueStart == queue.count { pull() }
    guard queueStart < queue.count else { return isClosed ? -1 : 0 }
    let item = queue[queueStart]
    queueStart += 1
    if queueStart == queue.count {
      queue.removeAll(keepingCapacity: true)
      queueStart = 0
    }
    if lent.count < item.text.count {
      lent.deallocate()
      lent = .allocate(capacity: item.text.count)
    }
    for (offset, byte) in item.text.enumerated() { lent[offset] = CChar(bitPattern: byte) }
    taken.insert(item.index)
    index = item.index
    text = tp_string(data: UnsafePointer(lent.baseAddress), length: item.text.count)
    return 1
  }

  /// The descriptor the provider may poll for more texts: the socket, while the stream is open.
  var descriptor: Int32 { isClosed ? -1 : channel.descriptor.rawValue }

  /// The provider's answer for `index` (borrowed; copied here).
  func deliver(_ index: Int, _ text: tp_string) {
    guard problem == nil else { return }
    guard !text.hasMissingData else {
      problem = "translation \(index) has NULL data but a length of \(text.length) bytes"
      return
    }
    guard taken.remove(index) != nil,
      let place = requests.firstIndex(where: { $0.first <= index && index < $0.first + $0.count })
    else {
      problem = "answered index \(index), which it was not given or answered before"
      return
    }
    requests[place].answers[index - requests[place].first] = text.bytes
    requests[place].remaining -= 1
    if place == 0 { replyToCompleted() }
  }

  /// After the provider's call returned `status`: a failure fails every
  /// request not answered; texts taken and not answered fail theirs.
  /// Returns whether the provider must be called again (texts it did not take).
  func finish(status: tp_status, message: String) -> Bool {
    if status != TP_STATUS_OK {
      failAll(.failed(ProviderStatus(status), message: message))
      return false
    }
    if let problem {
      failAll(.invalidTranslation(problem))
      return false
    }
    if let missing = taken.min() {
      failAll(.invalidTranslation("did not answer index \(missing) before returning"))
      return false
    }
    return hasUntakenTexts
  }

  /// Fails every request not answered yet (the provider returned without taking their texts).
  func failRemaining(_ error: ProviderError) { failAll(error) }

  /// Reads the requests that arrived, as long as they belong to the stream.
  private func pull() {
    while !isClosed {
      guard channel.pendingByteCount > 0 || (try? Syscalls.waitReadable(channel.descriptor, timeout: .zero)) == true
      else { return }
      let request: RunnerRequest
      do {
        request = try channel.receive(RunnerRequest.self)
      } catch {
        channelFailure = error
        isClosed = true
        return
      }
      guard case .translate(let source, let target, let texts) = request, source == self.source, target == self.target,
        !texts.isEmpty
      else {
        deferred = request
        isClosed = true
        return
      }
      add(texts)
    }
  }

  private func add(_ texts: [String]) {
    requests.append(
      Pending(first: nextIndex, count: texts.count, answers: Array(repeating: nil, count: texts.count), remaining: texts.count))
    for text in texts {
      queue.append((nextIndex, Array(text.utf8)))
      nextIndex += 1
    }
  }

  /// Answers the oldest requests while they are complete.
  private func replyToCompleted() {
    while let head = requests.first, head.remaining == 0 {
      requests.removeFirst()
      var translations: [String] = []
      for (offset, answer) in head.answers.enumerated() {
        guard let text = String(validating: answer!, as: UTF8.self) else {
          send(.failure(RunnerFailure(.invalidTranslation("the answer to index \(offset) is not valid UTF-8"))))
          translations = []
          break
        }
        translations.append(text)
      }
      if translations.count == head.count { send(.translations(translations)) }
    }
  }

  private func failAll(_ error: ProviderError) {
    for _ in requests { send(.failure(RunnerFailure(error))) }
    requests = []
    queue = []
    queueStart = 0
    taken = []
  }

  private func send(_ reply: RunnerReply) {
    guard sendFailure == nil else { return }
    do {
      try channel.send(RunnerMessage.reply(reply))
    } catch .oversized(let size) {
      let failure = RunnerFailure(
        kind: .provider,
        message: "the provider's answer of \(size) bytes is more than the runner protocol carries "
          + "(\(FrameChannel.maximumFrameSize) bytes); translate less text at once")
      do { try channel.send(RunnerMessage.reply(.failure(failure))) } catch { sendFailure = error }
    } catch {
      sendFailure = error
    }
  }
}
