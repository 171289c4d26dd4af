import Testing

@testable import Core

/// Inputs that crashed, hung or fooled a reader of manifests: each must be
/// refused with the reason shown, quickly and without exhausting the stack.
/// The first rows come from the security issue and crashed the old reader;
/// add here every input `make fuzz` (Benchmarks/PlistFuzz) ever reports.
@Suite struct PropertyListHostileInputTests {
  struct Hostile: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var bytes: @Sendable () -> [UInt8]
    var expected: PropertyListLimits.Violation
  }

  private static func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
  private static func repeated(_ text: String, _ count: Int) -> String { String(repeating: text, count: count) }

  static let cases: [Hostile] = [
    // Both crashed every command with SIGSEGV: the depth pre-check never counted <plist>.
    Hostile(
      testDescription: "20,000 nested <plist> (140 KB)",
      bytes: { utf8(repeated("<plist>", 20_000) + repeated("</plist>", 20_000)) },
      expected: .malformed("line 1: <plist> inside a property list; write one <plist> around the top-level value")),
    Hostile(
      testDescription: "20,000 nested <plist> around arrays", bytes: { utf8(repeated("<plist><array>", 20_000)) },
      expected: .malformed("line 1: <plist> inside a property list; write one <plist> around the top-level value")),
    // The pre-check counted the end tags inside a processing instruction, so the arrays after it
    // passed: the fast reader recursed through them, and Foundation, asked when the fast reader
    // gave up (at <data>, or at the end of the file), crashed with SIGSEGV.
    Hostile(
      testDescription: "deep arrays behind <?x … ?> around <data>",
      bytes: {
        utf8(
          "<?x " + repeated("</array>", 20_000) + " ?><plist>" + repeated("<array>", 20_000) + "<data>AA==</data>"
            + repeated("</array>", 20_000) + "</plist>")
      }, expected: .tooDeep),
    Hostile(
      testDescription: "deep arrays behind <?x … ?>, never closed",
      bytes: {
        utf8("<?x " + repeated("</array>", 20_000) + " ?><plist>" + repeated("<array>", 20_000))
      }, expected: .tooDeep),
    // These were read, 20,000 levels deep, past the limit.
    Hostile(
      testDescription: "deep arrays behind <?x … ?>",
      bytes: {
        utf8(
          "<?x " + repeated("</array>", 20_000) + " ?><plist>" + repeated("<array>", 20_000) + repeated("</array>", 20_000)
            + "</plist>")
      }, expected: .tooDeep),
    Hostile(
      testDescription: "deep dictionaries behind a comment inside a PI",
      bytes: {
        utf8("<plist><?x <!-- ?>" + repeated("<dict><key>a</key>", 10_000) + "<true/>" + repeated("</dict>", 10_000) + "</plist>")
      }, expected: .tooDeep),
    Hostile(
      testDescription: "deep arrays behind end tags in a DOCTYPE",
      bytes: {
        utf8("<!DOCTYPE plist [ <!-- " + repeated("</array>", 5_000) + " --> ]><plist>" + repeated("<array>", 5_000) + "</plist>")
      }, expected: .tooDeep),
    Hostile(
      testDescription: "deep arrays behind CDATA end tags",
      bytes: {
        utf8(
          "<plist><array><string><![CDATA[" + repeated("</array>", 5_000) + "]]></string>" + repeated("<array>", 5_000)
            + "</array></plist>")
      }, expected: .tooDeep),
    Hostile(
      testDescription: "10,000 nested arrays",
      bytes: { utf8("<plist>" + repeated("<array>", 10_000) + repeated("</array>", 10_000) + "</plist>") },
      expected: .tooDeep),
    Hostile(
      testDescription: "entity expansion (a billion laughs)",
      bytes: {
        utf8(
          "<!DOCTYPE plist [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]>\n<plist><string>&b;</string></plist>"
        )
      }, expected: .malformed("line 1: the DOCTYPE declares an entity; the host expands none, so remove the declaration")),
    Hostile(
      testDescription: "an undeclared entity", bytes: { utf8("<plist><string>&xxe;</string></plist>") },
      expected: .malformed("line 1: the entity &xxe; is not one of XML's five, and the host expands no others")),
    Hostile(
      testDescription: "an unclosed comment", bytes: { utf8("<plist><!--" + repeated("<array>", 10_000)) },
      expected: .malformed("line 1: a comment that is not closed")),
    Hostile(
      testDescription: "100,001 values", bytes: { utf8("<plist><array>" + repeated("<true/>", 100_001) + "</array></plist>") },
      expected: .tooManyObjects),
    Hostile(
      testDescription: "larger than 1 MiB", bytes: { utf8("<plist><string>" + repeated("x", 1 << 20) + "</string></plist>") },
      expected: .tooLarge((1 << 20) + 32)),
    // OpenStep went to Foundation's parser, which recurses per level (these two it refused as malformed).
    Hostile(testDescription: "OpenStep: 100,000 nested arrays", bytes: { utf8(repeated("(", 100_000)) }, expected: .tooDeep),
    Hostile(
      testDescription: "OpenStep: 50,000 nested dictionaries", bytes: { utf8(repeated("{a=", 50_000)) }, expected: .tooDeep),
    Hostile(
      testDescription: "OpenStep: an unclosed comment", bytes: { utf8("{ a = b; /* " + repeated("*", 10_000)) },
      expected: .malformed("line 1: a /* comment that is not closed")),
    // Binary graphs: deep, cyclic, exponentially shared, lying about counts.
    Hostile(
      testDescription: "binary: a chain of 10,000 arrays",
      bytes: {
        BinaryPlistBytes.file(
          (0..<10_000).map { BinaryPlistBytes.array($0 == 9_999 ? [] : [$0 + 1], referenceSize: 2) }, referenceSize: 2)
      }, expected: .tooDeep),
    Hostile(
      testDescription: "binary: an array that contains itself", bytes: { BinaryPlistBytes.file([BinaryPlistBytes.array([0])]) },
      expected: .tooDeep),
    Hostile(
      testDescription: "binary: a dictionary that contains itself",
      bytes: {
        BinaryPlistBytes.file([BinaryPlistBytes.dictionary([(1, 0)]), BinaryPlistBytes.string("a")])
      }, expected: .tooDeep),
    Hostile(
      testDescription: "binary: 2^30 paths through 30 arrays",
      bytes: {
        BinaryPlistBytes.file((0..<30).map { BinaryPlistBytes.array($0 == 29 ? [] : [$0 + 1, $0 + 1]) })
      }, expected: .tooManyObjects),
    Hostile(
      testDescription: "binary: an array claiming 2^60 elements",
      bytes: {
        BinaryPlistBytes.file([[0xAF, 0x13] + BinaryPlistBytes.bigEndian(1 << 60, size: 8) + [0]])
      }, expected: .malformed("object 0 has more references than the file has room for")),
    Hostile(
      testDescription: "binary: an array claiming more elements than the file has",
      bytes: {
        BinaryPlistBytes.file([[0xAF, 0x12] + BinaryPlistBytes.bigEndian(1_000_000, size: 4) + [0]])
      }, expected: .malformed("object 0 has more references than the file has room for")),
    Hostile(
      testDescription: "binary: a string claiming 2^40 UTF-16 units",
      bytes: {
        BinaryPlistBytes.file([BinaryPlistBytes.array([1]), [0x6F, 0x13] + BinaryPlistBytes.bigEndian(1 << 40, size: 8)])
      }, expected: .malformed("object 1 runs into the offset table")),
    Hostile(
      testDescription: "binary: a trailer claiming 2^62 objects",
      bytes: {
        var bytes = BinaryPlistBytes.file([BinaryPlistBytes.array([])])
        bytes.replaceSubrange((bytes.count - 24)..<(bytes.count - 16), with: BinaryPlistBytes.bigEndian(1 << 62, size: 8))
        return bytes
      }, expected: .malformed("an offset or count at byte 21 is out of range")),
    Hostile(
      testDescription: "binary: a reference past the object table",
      bytes: { BinaryPlistBytes.file([BinaryPlistBytes.array([7])]) },
      expected: .malformed("a reference to object 7 of 1")),
  ]

  @Test(arguments: cases) func refusesHostileInput(_ test: Hostile) {
    #expect(throws: test.expected) { try PropertyListValue.parse(test.bytes()) }
  }
}
