import Synchronization

/// The texts of an open batch, shared by the pipelines that translate it:
/// each text taken from the caller's source once, a text already translated
/// (`TranslationMemory`) or already in flight answered without being sent
/// again, and each translation handed to every index that asked for it.
/// Calls to the source and to `deliver` are serialized by its lock.
final class StreamFeed: @unchecked Sendable {
  private let lock = Mutex(())
  private let mode: String
  private let source: () -> StreamedText
  private let deliver: (Int, String) -> Void
  private let memory: (String) -> String?
  private let remember: (String, String) -> Void
  /// Texts to send, in order (taken from the source, or again after a failure).
  private var queue: [(id: Int, text: String)] = []
  private var queueStart = 0
  /// Texts sent or queued, by id, and the caller's indexes waiting for each.
  private var texts: [Int: (text: String, indexes: [Int])] = [:]
  private var idsByBytes: [[UInt8]: Int] = [:]
  private var nextID = 0
  private var sourceEnded = false

  init(
    mode: String, source: @escaping () -> StreamedText, deliver: @escaping (Int, String) -> Void,
    memory: @escaping (String) -> String?, remember: @escaping (String, String) -> Void
  ) {
    self.mode = mode
    self.source = source
    self.deliver = deliver
    self.memory = memory
    self.remember = remember
  }

  /// Takes every text the source has now into the queue; returns how many are queued.
  func prefetch() -> Int {
    lock.withLock { _ in
      while pull() {}
      return queue.count - queueStart
    }
  }

  /// Whether the source may still give texts (the pipelines then watch its descriptor).
  var isOpen: Bool { lock.withLock { _ in !sourceEnded } }

  /// The next text for a pipeline, or nil when none is there now.
  func next() -> (index: Int, text: String)? {
    lock.withLock { _ in
      while queueStart == queue.count {
        queue.removeAll(keepingCapacity: true)
        queueStart = 0
        if !pull() { return nil }
      }
      defer { queueStart += 1 }
      return (queue[queueStart].id, queue[queueStart].text)
    }
  }

  /// The translation of the text sent as `id`, for every index that asked for it.
  func answer(_ id: Int, _ translation: String) {
    lock.withLock { _ in
      guard let entry = texts.removeValue(forKey: id) else { return }
      idsByBytes[Array(entry.text.utf8)] = nil
      remember(entry.text, translation)
      for index in entry.indexes { deliver(index, translation) }
    }
  }

  /// After the pipelines failed: the texts they took and did not answer go first again.
  /// Returns how many there are.
  func requeueUnanswered() -> Int {
    lock.withLock { _ in
      let waiting = Set(queue[queueStart...].map(\.id))
      let lost = texts.keys.filter { !waiting.contains($0) }.sorted()
      queue = lost.map { ($0, texts[$0]!.text) } + queue[queueStart...]
      queueStart = 0
      return queue.count
    }
  }

  /// Takes one item from the source into the queue (or answers it at once);
  /// false when the source has nothing now. The lock is held.
  private func pull() -> Bool {
    guard !sourceEnded else { return false }
    switch source() {
    case .end:
      sourceEnded = true
      return false
    case .later:
      return false
    case .text(let index, let text):
      if let translation = memory(text) {
        deliver(index, translation)
        return true
      }
      let bytes = Array(text.utf8)
      if let id = idsByBytes[bytes] {
        texts[id]!.indexes.append(index)
        return true
      }
      let id = nextID
      nextID += 1
      idsByBytes[bytes] = id
      texts[id] = (text, [index])
      queue.append((id, text))
      return true
    }
  }
}
