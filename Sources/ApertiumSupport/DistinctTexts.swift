/// A batch's texts with each text once, in order of first occurrence, and
/// where each of the batch's texts is among them: a text that recurs (a
/// line repeated in a file, a label in a table) is translated once.
struct DistinctTexts {
  /// Each text of the batch once.
  let texts: [String]
  /// For each text of the batch, its place in `texts`.
  private let places: [Int]

  init(_ batch: [String]) {
    var first: [[UInt8]: Int] = [:]
    first.reserveCapacity(batch.count)
    var texts: [String] = []
    places = batch.map { text in
      let bytes = Array(text.utf8)
      if let place = first[bytes] { return place }
      first[bytes] = texts.count
      texts.append(text)
      return texts.count - 1
    }
    self.texts = texts
  }

  /// The batch's translations, given the translations of `texts`.
  func expand(_ translations: [String]) -> [String] { places.map { translations[$0] } }
}
