import ApertiumIntegerScan
import TestSupport
import Testing

/// The library loaded into Apertium's stages reads a text itself only when
/// ICU's `u_sscanf(text, "%d", …)` would give the same answer.
@Suite struct ApertiumIntegerScanTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let text: String
    /// The value read without ICU; nil: left to ICU.
    let value: Int32?
    var testDescription: String { text.debugDescription }
  }

  static let cases: [Case] = [
    Case(text: "3", value: 3),
    Case(text: "3>", value: 3),
    Case(text: "4><5>$}", value: 4),
    Case(text: "007>", value: 7),
    Case(text: "0", value: 0),
    Case(text: "123456789", value: 123_456_789),
    // Left to ICU: more digits than certainly fit, signs, blanks, separators, other digits, other ends.
    Case(text: "1234567890", value: nil),
    Case(text: "", value: nil),
    Case(text: ">", value: nil),
    Case(text: "-3", value: nil),
    Case(text: "+3", value: nil),
    Case(text: " 3", value: nil),
    Case(text: "3 >", value: nil),
    Case(text: "3,500>", value: nil),
    Case(text: "3.5", value: nil),
    Case(text: "3e2", value: nil),
    Case(text: "3$", value: nil),
    Case(text: "3%", value: nil),
    Case(text: "3<", value: nil),
    Case(text: "٣>", value: nil),
    Case(text: "３", value: nil),
  ]

  private static func scan(_ text: String) -> (fast: Int32?, icu: (count: Int32, value: Int32)) {
    let units = Array(text.utf16) + [0]
    var fast: Int32 = 0
    var icu: Int32 = -1
    let handled = tp_apertium_scan_integer(units, &fast)
    let count = tp_apertium_icu_scan_integer(units, &icu)
    return (handled ? fast : nil, (count, icu))
  }

  @Test(arguments: cases) func readsOnlyWhatICUReadsTheSame(_ test: Case) throws {
    let (fast, icu) = Self.scan(test.text)
    #expect(fast == test.value)
    #expect(icu.count >= 0, "ICU's ustdio library was not found")
    if let fast { #expect(icu.count == 1 && icu.value == fast, "ICU reads \(icu)") }
  }

  /// Random texts of digits and the characters near them in tags and numbers.
  @Test func agreesWithICUOnRandomTexts() {
    let alphabet = Array("0123456789>>>,.-+ $%<e٣") + ["0", "1", "9"]
    var generator = SeededGenerator(for: "ApertiumIntegerScanTests, random texts")
    var handled = 0
    for _ in 0..<20_000 {
      let length = Int.random(in: 0...12, using: &generator)
      let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
      let (fast, icu) = Self.scan(text)
      guard let fast else { continue }
      handled += 1
      if icu.count != 1 || icu.value != fast { Issue.record("\(text.debugDescription): \(fast), ICU \(icu)") }
    }
    #expect(handled > 1_000)
  }
}
