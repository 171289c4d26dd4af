import FoundationEssentials
import Testing
@testable import TranslationHostCore

@Suite struct PropertyListTests {
  private func xml(_ body: String) -> [UInt8] {
    Array(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <!-- a comment -->
      <plist version="1.0">\(body)</plist>

      """.utf8)
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var body: String
    var expected: PropertyListValue
  }

  static let cases: [Case] = [
    Case(testDescription: "strings with entities", body: "<dict><key>a&amp;b</key><string>&lt;x&gt; &quot;y&quot; &apos;z&apos; &#233;&#x1F600;</string></dict>",
         expected: .dictionary(["a&b": .string("<x> \"y\" 'z' é😀")])),
    Case(testDescription: "scalars", body: "<array><true/><false/><integer>42</integer><integer>-7</integer><real>2.5</real><string/><string>  keep  </string></array>",
         expected: .array([.boolean(true), .boolean(false), .integer(42), .integer(-7), .real(2.5), .string(""), .string("  keep  ")])),
    Case(testDescription: "nesting and comments", body: "<dict>\n  <!-- c --><key>d</key><dict><key>e</key><array/></dict>\n  <key>f</key><dict/>\n</dict>",
         expected: .dictionary(["d": .dictionary(["e": .array([])]), "f": .dictionary([:])])),
  ]

  @Test(arguments: cases) func readsManifestXML(_ test: Case) throws {
    #expect(XMLPropertyListReader.read(xml(test.body)) == test.expected)
    #expect(try PropertyListValue.parse(xml(test.body)) == test.expected)
  }

  @Test(arguments: cases) func agreesWithFoundation(_ test: Case) throws {
    let foundation = try PropertyListDecoder().decode(PropertyListValue.self, from: Data(xml(test.body)))
    #expect(XMLPropertyListReader.read(xml(test.body)) == foundation)
  }

  @Test(arguments: [
    "<data>AAEC</data>", "<date>2026-01-01T00:00:00Z</date>", "<string><![CDATA[x]]></string>", "<dict><key>a</key></dict>",
    "<dict><key>a</key><string>1</string><key>a</key><string>2</string></dict>", "<string>&bogus;</string>", "<string>open",
    "<dict attr=\"1\"></dict>",
  ])
  func defersWhatItDoesNotHandle(_ body: String) {
    #expect(XMLPropertyListReader.read(xml(body)) == nil)
  }

  @Test func dataAndDatesStillParseThroughFoundation() throws {
    #expect(try PropertyListValue.parse(xml("<array><data>AAEC</data></array>")) == .array([.data(Data([0, 1, 2]))]))
  }

  @Test func nestingAtTheLimitPassesAndOneDeeperFails() throws {
    let limit = PropertyListLimits.maximumDepth
    let atLimit = xml(String(repeating: "<array>", count: limit) + String(repeating: "</array>", count: limit))
    try PropertyListLimits.check(atLimit)
    let deeper = xml(String(repeating: "<array>", count: limit + 1) + String(repeating: "</array>", count: limit + 1))
    #expect(throws: PropertyListLimits.Violation.tooDeep) { try PropertyListLimits.check(deeper) }
    let hidden = xml("<!--" + String(repeating: "</array>", count: 40) + "-->" + String(repeating: "<array>", count: limit + 1))
    #expect(throws: PropertyListLimits.Violation.tooDeep) { try PropertyListLimits.check(hidden) }
    let attributed = xml(String(repeating: "<array a=\"\">", count: limit + 1) + String(repeating: "</array >", count: limit + 1))
    #expect(throws: PropertyListLimits.Violation.tooDeep) { try PropertyListLimits.check(attributed) }
    let selfClosing = xml("<array>" + String(repeating: "<dict/><array />", count: 500) + "</array>")
    try PropertyListLimits.check(selfClosing)
  }

  @Test func binaryListsThatExpandExponentiallyAreRefused() throws {
    // 40 arrays, each holding the next one twice: 2^40 paths in 200 bytes.
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in 0..<40 {
      offsets.append(bytes.count)
      bytes += object == 39 ? [0xA0] : [0xA2, UInt8(object + 1), UInt8(object + 1)]
    }
    let table = bytes.count
    bytes += offsets.map { UInt8($0) }
    bytes += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 40] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
    #expect(throws: PropertyListLimits.Violation.self) { try PropertyListLimits.check(bytes) }
  }

  @Test func ordinaryBinaryListsPass() throws {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .binary
    let bytes = Array(try encoder.encode(["a": ["b", "c"], "d": ["e"]]))
    try PropertyListLimits.check(bytes)
    #expect(try PropertyListValue.parse(bytes) == .dictionary(["a": .array([.string("b"), .string("c")]), "d": .array([.string("e")])]))
  }
}
