import Testing

@testable import DesktopPopover

/// A translation as the virtual keyboard types it: the keysyms of its
/// keymap, the keys in order, the parts, and what is refused.
@Suite struct TypingPlanTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var text: String
    /// The keymap's keysyms, keycode 9 first.
    var symbols: [String]
    /// Evdev codes (keycode less 8).
    var keys: [UInt32]
    var testDescription: String { text.debugDescription }
  }

  @Test(arguments: [
    Case(text: "a", symbols: ["U0061"], keys: [1]),
    // A character typed twice is one key pressed twice.
    Case(text: "olleH", symbols: ["U006F", "U006C", "U0065", "U0048"], keys: [1, 2, 2, 3, 4]),
    // Beyond ASCII: Latin-1, and beyond it (xkbcommon maps Uxxxx to the character).
    Case(text: "¿Qué?", symbols: ["U00BF", "U0051", "U0075", "U00E9", "U003F"], keys: [1, 2, 3, 4, 5]),
    Case(text: "ñ€😀", symbols: ["U00F1", "U20AC", "U1F600"], keys: [1, 2, 3]),
    // A combining accent is a key of its own, after its letter.
    Case(text: "e\u{301}", symbols: ["U0065", "U0301"], keys: [1, 2]),
    // Line breaks (LF, CR LF, CR) are Return; a tab is Tab.
    Case(
      text: "a\nb\r\nc\rd\te", symbols: ["U0061", "Return", "U0062", "U0063", "U0064", "Tab", "U0065"],
      keys: [1, 2, 3, 2, 4, 2, 5, 6, 7]),
    Case(text: " ", symbols: ["U0020"], keys: [1]),
  ])
  func keymapAndKeys(_ test: Case) throws {
    let plan = try TypingPlan(test.text)
    let part = try #require(plan.parts.first)
    #expect(plan.parts.count == 1)
    #expect(part.keys == test.keys)
    #expect(Self.symbols(part.keymap) == test.symbols)
    #expect(part.keymap.contains("maximum = \(8 + test.symbols.count);"))
  }

  struct Refused: Sendable, CustomTestStringConvertible {
    var text: String
    var refusal: TypingPlan.Refusal
    var testDescription: String { text.count > 20 ? "\(text.count) characters" : text.debugDescription }
  }

  @Test(arguments: [
    Refused(text: "\u{7}", refusal: .controlCharacter("\u{7}", offset: 0)),
    Refused(text: "ab\u{1B}[2J", refusal: .controlCharacter("\u{1B}", offset: 2)),
    Refused(text: "x\u{7F}", refusal: .controlCharacter("\u{7F}", offset: 1)),
    Refused(text: "\u{85}", refusal: .controlCharacter("\u{85}", offset: 0)),
    Refused(text: "", refusal: .empty),
    Refused(
      text: String(repeating: "a", count: TypingPlan.maximumLength + 1),
      refusal: .tooLong(count: TypingPlan.maximumLength + 1)),
  ])
  func refused(_ test: Refused) {
    #expect(throws: test.refusal) { try TypingPlan(test.text) }
  }

  @Test func aRefusalNamesTheCharacter() {
    #expect(TypingPlan.Refusal.controlCharacter("\u{1B}", offset: 2).description.contains("U+001B (character 3)"))
  }

  /// More distinct characters than X clients have keycodes: parts, each
  /// with its keymap, the keys' order kept.
  @Test func manyDistinctCharactersAreTypedInParts() throws {
    let count = TypingPlan.keycodes.count
    let text = String(String.UnicodeScalarView((0..<(count + 10)).map { Unicode.Scalar(0x4E00 + UInt32($0))! }))
    let plan = try TypingPlan(text + "\u{4E00}")
    #expect(plan.parts.count == 2)
    #expect(plan.parts[0].keys == Array(1...UInt32(count)))
    #expect(Self.symbols(plan.parts[0].keymap).first == "U4E00")
    #expect(plan.parts[0].keymap.contains("maximum = 255;"))
    // The second part starts a new keymap: 10 characters, then the first one again.
    #expect(plan.parts[1].keys == Array(1...10) + [11])
    #expect(Self.symbols(plan.parts[1].keymap).last == "U4E00")
    #expect(plan.count == count + 11)
  }

  /// The keysyms of `keymap`'s keys, in keycode order.
  static func symbols(_ keymap: String) -> [String] {
    keymap.split(separator: "\n").compactMap { line -> String? in
      let words = line.split(separator: " ")
      guard words.first == "key", let open = words.firstIndex(of: "["), open + 1 < words.count else { return nil }
      return String(words[open + 1])
    }
  }
}
