import Testing

@testable import ApertiumSupport

@Suite struct TranslationMemoryTests {
  /// What is remembered or looked up, in order, and what each lookup finds.
  enum Step: Sendable {
    case remember(String, mode: String = "eng-spa")
    case find(String, mode: String = "eng-spa", expected: Bool)
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let steps: [Step]
    var testDescription: String { name }
  }

  /// Generations of 12 bytes: "aa" with its translation "<aa>" takes 2 + 4 + 7 ("eng-spa").
  static let cases: [Case] = [
    Case(name: "a remembered text is found", steps: [.remember("aa"), .find("aa", expected: true)]),
    Case(name: "another text is not", steps: [.remember("aa"), .find("bb", expected: false)]),
    Case(name: "nor the same text in another pair", steps: [.remember("aa"), .find("aa", mode: "spa-eng", expected: false)]),
    Case(name: "texts longer than the limit are not kept", steps: [.remember("abcdefghi"), .find("abcdefghi", expected: false)]),
    Case(
      name: "a full generation becomes the previous one, still found",
      steps: [.remember("aa"), .remember("bb"), .find("aa", expected: true), .find("bb", expected: true)]),
    Case(
      name: "what no lookup moved is dropped two generations on",
      steps: [.remember("aa"), .remember("bb"), .remember("cc"), .find("aa", expected: false), .find("cc", expected: true)]),
    Case(
      name: "a lookup moves an entry into the current generation, so it stays",
      steps: [
        .remember("aa"), .remember("bb"), .find("aa", expected: true), .remember("cc"), .find("aa", expected: true),
        .find("bb", expected: false),
      ]),
    Case(
      name: "bytes, not characters: é composed and decomposed are two texts",
      steps: [.remember("\u{e9}"), .find("e\u{301}", expected: false), .find("\u{e9}", expected: true)]),
  ]

  @Test(arguments: cases) func keepsWhatIsUsedWithinItsBounds(_ test: Case) {
    var memory = TranslationMemory(maximumTextBytes: 8, generationBytes: 14)
    for step in test.steps {
      switch step {
      case .remember(let text, let mode): memory.remember("<\(text)>", of: text, mode: mode)
      case .find(let text, let mode, let expected):
        let found = memory.translation(of: text, mode: mode)
        #expect(found == (expected ? "<\(text)>" : nil), "\(text) in \(mode)")
      }
    }
  }
}
