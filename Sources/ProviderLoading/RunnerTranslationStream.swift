import CTranslationProvider
import RunnerProtocol

/// Consecutive `translate` requests of the host for one language pair,
/// served by one open batch of a provider with `tp.translate.stream/1`: while
/// the provider works, the texts of requests that arrived since are handed
/// to it, and each request is answered as soon as all its texts are, in the
/// order the requests came. A request for anything else (another pair, an
/// empty batch, a scene) closes the stream and waits until the provider's
/// call returns (`deferred`).
///
/// A provider that breaks a rule fails the request the broken rule belongs
/// to, and only that one: an index answered twice or before it was taken, an
/// answer with NULL data, not valid UTF-8 or larger than the runner protocol
/// carries, a text taken and not answered when the call returned. An answer
/// for an index it was never given (or whose request was answered already)
/// belongs to no request: it is ignored and logged.
///
/// The provider reaches it only through `TranslationStreamPort`, which
/// serializes its calls and gives the indexes; the socket is not read by
/// anyone else while the provider's call runs on the runner's thread.
final class RunnerTranslationStream {
  private struct Pending {
    /// The position of its first text among the stream's texts.
    let first: Int
    let count: Int
    var answers: [String?]
    /// Texts not answered yet.
    var remaining: Int
    /// The indexes its texts were given, in order (texts are taken in order).
    var indexes: [Int] = []
    /// The bytes of its answers so far.
    var size = 0
    /// Why it fails, once it does; answers that come later are dropped.
    var failure: ProviderError?

    init(first: Int, count: Int) {
      self.first = first
      self.count = count
      answers = Array(repeating: nil, count: count)
      remaining = count
    }
  }

  let source: String
  let target: String
  private let channel: FrameChannel
  private let warn: (String) -> Void
  /// Requests not answered yet, oldest first.
  private var requests: [Pending] = []
  /// Texts not taken by the provider yet, with their positions in the stream.
  private var queue: [(position: Int, text: [UInt8])] = []
  private var queueStart = 0
  /// Texts added so far.
  private var added = 0
  /// The position of each text given whose request is not answered yet, by
  /// the index it was given as (a stream may stay open for hours: what is
  /// answered is forgotten).
  private var given: [Int: Int] = [:]
  /// Texts given so far.
  private(set) var takenCount = 0
  private var warnedOfStrayAnswer = false
  private(set) var isClosed = false
  /// A request that is not part of the stream, to answer after it.
  private(set) var deferred: RunnerRequest?
  /// How reading the socket failed (the host went away), if it did.
  private(set) var channelFailure: ProtocolError?
  /// How a reply could not be sent, if one could not.
  private(set) var sendFailure: ProtocolError?

  /// `warn` writes one line to the runner's log.
  init(channel: FrameChannel, source: String, target: String, texts: [String], warn: @escaping (String) -> Void) {
    self.channel = channel
    self.source = source
    self.target = target
    self.warn = warn
    add(texts)
  }

  /// The descriptor the provider may poll for more texts: the socket, while the stream is open.
  var descriptor: Int32 { isClosed ? -1 : channel.descriptor.rawValue }

  /// The next text, given to the provider as `index`; nil when none is there now.
  func take(index: Int) -> [UInt8]? {
    if queueStart == queue.count { pull() }
    guard queueStart < queue.count else { return nil }
    let item = queue[queueStart]
    queueStart += 1
    if queueStart == queue.count {
      queue.removeAll(keepingCapacity: true)
      queueStart = 0
    }
    given[index] = item.position
    takenCount += 1
    if let place = place(of: item.position) { requests[place].indexes.append(index) }
    return item.text
  }

  /// The provider's answer for `index` (borrowed; copied here).
  func deliver(_ index: Int, _ text: tp_string) {
    guard let position = given[index], let place = place(of: position) else {
      stray("index \(index), which it was not given in this call or whose request was answered already")
      return
    }
    guard requests[place].failure == nil else { return }
    let offset = position - requests[place].first
    guard requests[place].answers[offset] == nil else {
      return fail(place, .invalidTranslation("answered index \(index) twice"))
    }
    guard !text.hasMissingData else {
      return fail(place, .invalidTranslation("the answer to index \(index) has NULL data but a length of \(text.length) bytes"))
    }
    let limit = FrameChannel.maximumFrameSize
    guard text.length <= limit - requests[place].size else {
      return fail(
        place,
        .invalidTranslation(
          "the answers come to more than the \(limit) bytes the runner protocol carries at index \(index) "
            + "(\(text.length) bytes); translate less text at once"))
    }
    let bytes = UnsafeRawBufferPointer(start: text.data, count: text.length)
    guard let answer = String(validating: bytes, as: UTF8.self) else {
      return fail(place, .invalidTranslation("the answer to index \(index) is not valid UTF-8"))
    }
    requests[place].answers[offset] = answer
    requests[place].size += text.length
    requests[place].remaining -= 1
    if place == 0 { replyToCompleted() }
  }

  /// After the provider's call returned `status` (`progressed`: it took
  /// texts): a request with a text taken and not answered fails, with the
  /// provider's status or, when it said OK, as unanswered. Returns whether
  /// the provider must be called again, for texts it did not take.
  func finish(status: tp_status, message: String, progressed: Bool) -> Bool {
    let failure: ProviderError? = status == TP_STATUS_OK ? nil : .failed(ProviderStatus(status), message: message)
    var untaken = false
    for place in requests.indices where requests[place].failure == nil {
      let request = requests[place]
      if let offset = request.answers.indices.first(where: { $0 < request.indexes.count && request.answers[$0] == nil }) {
        requests[place].failure =
          failure ?? .invalidTranslation("did not answer index \(request.indexes[offset]) before returning")
      } else if request.indexes.count < request.count {
        untaken = true
      }
    }
    if untaken && !progressed {
      for place in requests.indices where requests[place].failure == nil {
        requests[place].failure = failure ?? .invalidTranslation("returned without taking every text")
      }
      untaken = false
    }
    dropQueuedTextsOfFailedRequests()
    replyToCompleted()
    return untaken
  }

  /// Reads the requests that arrived, as long as they belong to the stream.
  private func pull() {
    while !isClosed {
      let request: RunnerRequest
      do {
        // One `recv` a look (the provider looks after every answer), not a `poll` and then a `recv`.
        guard let arrived = try channel.receiveIfArrived(RunnerRequest.self) else { return }
        request = arrived
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
    requests.append(Pending(first: added, count: texts.count))
    for text in texts {
      queue.append((added, Array(text.utf8)))
      added += 1
    }
  }

  /// Where in `requests` the request holding the text at `position` is, if it is not answered yet.
  private func place(of position: Int) -> Int? {
    // Requests are in order of their first text: a binary search.
    var low = 0
    var high = requests.count
    while low < high {
      let middle = (low + high) / 2
      if requests[middle].first + requests[middle].count <= position { low = middle + 1 } else { high = middle }
    }
    guard low < requests.count, requests[low].first <= position else { return nil }
    return low
  }

  private func fail(_ place: Int, _ error: ProviderError) {
    requests[place].failure = error
    dropQueuedTextsOfFailedRequests()
    replyToCompleted()
  }

  /// The texts of failed requests are not given to the provider any more.
  private func dropQueuedTextsOfFailedRequests() {
    guard requests.contains(where: { $0.failure != nil }), queueStart < queue.count else { return }
    queue = queue[queueStart...].filter { item in place(of: item.position).map { requests[$0].failure == nil } ?? false }
    queueStart = 0
  }

  /// Answers the oldest requests while they are complete or failed.
  private func replyToCompleted() {
    while let head = requests.first {
      if let failure = head.failure {
        send(.failure(RunnerFailure(failure)))
      } else if head.remaining == 0 {
        send(.translations(head.answers.map { $0! }))
      } else {
        return
      }
      for index in head.indexes { given[index] = nil }
      requests.removeFirst()
    }
  }

  /// Said once per stream: a provider cannot flood the log.
  private func stray(_ what: String) {
    guard !warnedOfStrayAnswer else { return }
    warnedOfStrayAnswer = true
    warn("the provider answered \(what); ignored (further stray answers in this call are not logged)")
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
