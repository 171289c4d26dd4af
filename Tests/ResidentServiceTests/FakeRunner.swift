import Glibc
import Service
import System

@testable import ResidentService

/// A runner in this process for `TranslationCoalescer`'s tests: it upper-cases
/// each text after `perText`, one text at a time in the order the texts were
/// sent (as a pipeline does), on a thread of its own, holding up to
/// `batchesInFlight` batches, and answers each message of a batch as soon as
/// its texts are done. "crash" ends it (the batches in it fail, as a
/// runner's whose provider crashed); "hang" holds it until the reader's
/// deadline; a text that starts with "pause" takes 100 ms.
final class FakeRunner: BatchTranslating, @unchecked Sendable {
  let batchesInFlight: Int
  private let perText: Duration
  private let condition = Condition()
  /// Messages sent and not translated yet, in order.
  private var sent: [[String]] = []
  private var done: [Result<[String], HostError>] = []
  /// Of each batch it holds, oldest first: its messages not received yet.
  private var held: [Int] = []
  private var ended = false
  /// Every batch it was sent, in order (its texts, and its messages), how
  /// many batches it held as each was sent (that one too), and the most it
  /// held at once.
  private(set) var batches: [[String]] = []
  private(set) var messages: [[[String]]] = []
  private(set) var heldAtSend: [Int] = []
  private(set) var mostHeld = 0
  /// Every text it translated, in order.
  private(set) var translated: [String] = []
  /// For each message received: how many texts it had translated by then.
  private(set) var translatedAtReceive: [Int] = []

  init(batchesInFlight: Int, perText: Duration) {
    self.batchesInFlight = batchesInFlight
    self.perText = perText
    DetachedThread.start(name: "fake-runner") { [self] in work() }
  }

  func send(_ messages: [[String]], from source: String, to target: String) throws {
    condition.lock()
    defer { condition.unlock() }
    if ended { throw HostError(.failure, "the fake runner ended") }
    precondition(held.count < batchesInFlight, "sent more batches than the runner holds")
    precondition(!messages.isEmpty)
    sent += messages
    held.append(messages.count)
    batches.append(messages.flatMap { $0 })
    self.messages.append(messages)
    heldAtSend.append(held.count)
    mostHeld = max(mostHeld, held.count)
    condition.broadcast()
  }

  func receive(count: Int, deadline: ContinuousClock.Instant) throws -> [String] {
    condition.lock()
    defer { condition.unlock() }
    while done.isEmpty && !ended {
      guard condition.wait(until: deadline) else {
        ended = true
        condition.broadcast()
        throw RunnerError.deadlineExceeded(provider: FakeRunners.provider, after: .seconds(1)).hostError
      }
    }
    guard !done.isEmpty else { throw HostError(.failure, "the fake runner ended") }
    let translations = try done.removeFirst().get()
    precondition(translations.count == count)
    translatedAtReceive.append(translated.count)
    held[0] -= 1
    if held[0] == 0 { held.removeFirst() }
    return translations
  }

  var interruption: @Sendable () -> Void {
    { [self] in
      condition.lock()
      ended = true
      condition.broadcast()
      condition.unlock()
    }
  }

  /// How many batches it was sent so far.
  var sentCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return batches.count
  }

  /// How many texts it translated so far.
  var translatedCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return translated.count
  }

  var hasEnded: Bool {
    condition.lock()
    defer { condition.unlock() }
    return ended
  }

  private func work() {
    condition.lock()
    defer { condition.unlock() }
    while true {
      while sent.isEmpty && !ended { condition.wait() }
      if ended { return }
      let texts = sent[0]
      var translations: [String] = []
      for text in texts {
        if text == "crash" {
          ended = true
          condition.broadcast()
          return
        }
        while text == "hang" && !ended { condition.wait() }
        condition.unlock()
        usleep(UInt32((text.hasPrefix("pause") ? .milliseconds(100) : perText).inSeconds * 1_000_000))
        condition.lock()
        if ended { return }
        translations.append(text.uppercased())
        translated.append(text)
      }
      sent.removeFirst()
      done.append(.success(translations))
      condition.broadcast()
    }
  }
}
