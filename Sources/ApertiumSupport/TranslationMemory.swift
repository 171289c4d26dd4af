/// Translations already made, by pair and text, so that a text that recurs
/// across batches (a line repeated through a long file, a label every client
/// of the service asks for) is translated once. Apertium translates a text
/// the same way each time: the pipeline keeps no state between texts.
///
/// Bounded: texts longer than `maximumTextBytes` are not kept, and entries
/// live in two generations of at most `generationBytes` each. A hit moves an
/// entry to the current generation; when the current one is full it becomes
/// the previous one, and the entries no hit moved since are dropped. So what
/// is used often stays, at a cost of O(1) per text.
struct TranslationMemory {
  /// A text by its bytes, not a `String`: two texts that Swift compares
  /// equal (canonically equivalent) may differ in bytes, and so in translation.
  struct Key: Hashable {
    let mode: String
    let text: [UInt8]

    /// The bytes hashed at once: `[UInt8]`'s own hashing feeds the hasher
    /// a byte at a time (each text is looked up and remembered once).
    func hash(into hasher: inout Hasher) {
      hasher.combine(mode)
      hasher.combine(text.count)
      text.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
  }

  let maximumTextBytes: Int
  let generationBytes: Int

  private var current: [Key: String] = [:]
  private var previous: [Key: String] = [:]
  private var currentBytes = 0

  /// The defaults keep up to 16 MiB of texts and translations, some 100,000 sentences.
  init(maximumTextBytes: Int = 4 * 1024, generationBytes: Int = 8 * 1024 * 1024) {
    self.maximumTextBytes = maximumTextBytes
    self.generationBytes = generationBytes
  }

  /// The translation of `text` by the pair `mode`, if made before and kept.
  mutating func translation(of text: String, mode: String) -> String? {
    let key = Key(mode: mode, text: Array(text.utf8))
    if let translation = current[key] { return translation }
    guard let translation = previous.removeValue(forKey: key) else { return nil }
    insert(translation, for: key)
    return translation
  }

  /// Keeps `translation` as the translation of `text` by the pair `mode`.
  mutating func remember(_ translation: String, of text: String, mode: String) {
    guard text.utf8.count <= maximumTextBytes else { return }
    insert(translation, for: Key(mode: mode, text: Array(text.utf8)))
  }

  private mutating func insert(_ translation: String, for key: Key) {
    let bytes = key.text.count + translation.utf8.count + key.mode.utf8.count
    if currentBytes + bytes > generationBytes {
      previous = current
      current = [:]
      currentBytes = 0
    }
    if current.updateValue(translation, forKey: key) == nil { currentBytes += bytes }
  }
}
