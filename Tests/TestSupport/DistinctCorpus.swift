import Foundation

/// Distinct English sentences made reproducibly, for checking that a batch
/// translates each text as if alone: no corpus can be downloaded here, and
/// a set of sentences that recur measures the translation memory instead.
///
/// Two sources, both on every Debian system:
/// - the sentences of the licence texts in `/usr/share/common-licenses`
///   (Debian's `base-files`): legal English, long sentences, quotes,
///   parentheses, words Apertium does not know and words of classes its
///   tagger was not trained on ("included", "construed");
/// - sentences generated from word lists by a fixed linear congruential
///   sequence: names Apertium does not know, words that are nouns and verbs
///   ("makes", "works", "plays"), and every ending a line may have: none,
///   ".", "!", "?", "...", a quote, a dash, an abbreviation ("Mr", "etc",
///   "e.g"), a number.
/// Empty lines are among them, one in fifty.
package enum DistinctCorpus {
  package static func lines(_ count: Int) -> [String] {
    var seen: Set<String> = [""]
    var lines: [String] = []
    func add(_ line: String) {
      guard lines.count < count else { return }
      if lines.count % 50 == 49 { lines.append("") }
      if lines.count < count, seen.insert(line).inserted { lines.append(line) }
    }
    for sentence in licenceSentences() { add(sentence) }
    var state: UInt64 = 0x5eed
    func pick<T>(_ list: [T]) -> T {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return list[Int((state >> 33) % UInt64(list.count))]
    }
    while lines.count < count {
      let core = "\(pick(subjects)) \(pick(verbs)) \(pick(objects))\(pick(middles))"
      add(pick(frames).replacingOccurrences(of: "_", with: core) + pick(endings))
    }
    return lines
  }

  static let subjects = [
    "Conscience", "The old teacher", "Zorblat", "My neighbour Kwame", "A small dog", "The children", "Ingrid", "Nobody",
    "The committee", "Our new manager", "Everyone here", "The farmer's wife", "Xanthippe", "The licensee", "A stranger",
    "The software", "Her brother Olek", "This book", "The city council", "Grandma Ruth",
  ]
  static let verbs = [
    "makes", "works on", "plays", "reads", "included", "used", "construed", "paints", "finds", "sells", "wants", "saw",
    "will bring", "has opened", "can't stand", "is addressed as", "runs", "lights", "books", "watches",
  ]
  static let objects = [
    "egotists of us all", "the red car", "three apples", "a good film", "the letter", "the modification",
    "their own behalf", "the blue door", "any warranty", "a small light", "the play", "his works", "the park",
    "the patent", "a glass of water", "the GNU GPL", "fresh bread", "the old bridge", "a long report", "the match",
  ]
  static let middles = [
    "", "", "", " at home", " every morning", " near the river", " (again)", " — or so they say", " - twice",
    " in \"the garden\"", ", however", " without limitation", " on Sunday", " at 10:30", " by hand",
  ]
  static let frames = ["_", "_", "_", "_", "\"_\"", "(_)", "Why _", "— _", "'_'", "Yes, _", "_ and then left"]
  static let endings = [
    ".", ".", ".", "", "", "!", "?", "...", "\"", " -", " —", " Mr", " etc", " e.g", " 42", ";", ":", ".)", "!\"", " 2024",
  ]

  /// The licence texts' sentences, in file order, blanks made single spaces.
  package static func licenceSentences() -> [String] {
    let folder = "/usr/share/common-licenses"
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    var sentences: [String] = []
    for name in names {
      guard let text = try? String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8) else { continue }
      let words = text.split(whereSeparator: \.isWhitespace)
      var sentence: [Substring] = []
      for word in words {
        sentence.append(word)
        if let last = word.last, ".!?".contains(last) {
          if sentence.count >= 3 && sentence.count <= 40 { sentences.append(sentence.joined(separator: " ")) }
          sentence = []
        }
      }
    }
    return sentences
  }
}
