import FoundationEssentials
import Testing

@testable import Core

@Suite struct PropertyListTests {
  static let prolog = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <!-- a comment -->

    """

  static func xml(_ body: String) -> [UInt8] { Array((prolog + "<plist version=\"1.0\">\(body)</plist>\n").utf8) }

  struct Case: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var bytes: [UInt8]
    var expected: PropertyListValue
    /// Whether Foundation's decoder reads it too (so the two can be compared).
    var foundationReads = true
  }

  static let xmlCases: [Case] = [
    Case(
      testDescription: "strings with entities",
      bytes: xml("<dict><key>a&amp;b</key><string>&lt;x&gt; &quot;y&quot; &apos;z&apos; &#233;&#x1F600;&#10;</string></dict>"),
      expected: .dictionary(["a&b": .string("<x> \"y\" 'z' é😀\n")])),
    Case(
      testDescription: "scalars",
      bytes: xml(
        "<array><true/><false/><integer>42</integer><integer>-7</integer><real>2.5</real><string/><string>  keep  </string></array>"
      ),
      expected: .array([
        .boolean(true), .boolean(false), .integer(42), .integer(-7), .real(2.5), .string(""), .string("  keep  "),
      ])),
    Case(
      testDescription: "integers: hexadecimal, signed, at the limits",
      bytes: xml(
        "<array><integer>0x1F</integer><integer>-0x10</integer><integer> +5 </integer><integer>9223372036854775807</integer><integer>-9223372036854775808</integer></array>"
      ),
      expected: .array([.integer(31), .integer(-16), .integer(5), .integer(.max), .integer(.min)]), foundationReads: false),
    Case(
      testDescription: "reals", bytes: xml("<array><real>1e3</real><real> -0.5 </real><real>7</real></array>"),
      expected: .array([.real(1000), .real(-0.5), .real(7)]), foundationReads: false),
    Case(
      testDescription: "empty data, which Foundation refuses", bytes: xml("<array><data/><data></data></array>"),
      expected: .array([.data(Data()), .data(Data())]), foundationReads: false),
    Case(
      testDescription: "nesting and comments",
      bytes: xml("<dict>\n  <!-- c --><key>d</key><dict><key>e</key><array/></dict>\n  <key>f</key><dict/>\n</dict>"),
      expected: .dictionary(["d": .dictionary(["e": .array([])]), "f": .dictionary([:])])),
    Case(
      testDescription: "processing instructions and comments anywhere",
      bytes: Array(
        "<?xml version=\"1.0\"?><?xml-stylesheet href=\"a.xsl\"?><plist><?x y?><dict><key>k<!-- c --></key><?pi a > b?><string>a<!-- > --> b<?x?>c</string></dict><!-- end --></plist><?after?>"
          .utf8),
      expected: .dictionary(["k": .string("a bc")]), foundationReads: false),
    Case(
      testDescription: "CDATA",
      bytes: xml("<array><string><![CDATA[<x> & ]]]]><![CDATA[>]]> y</string><data><![CDATA[AAEC]]></data></array>"),
      expected: .array([.string("<x> & ]]> y"), .data(Data([0, 1, 2]))]), foundationReads: false),
    Case(
      testDescription: "DOCTYPE with an internal subset",
      bytes: Array(
        "<!DOCTYPE plist SYSTEM \"x]>\" [ <!ELEMENT plist ANY> <!-- <!ENTITY e 'no'> --> <!ATTLIST plist version CDATA '1.0'> ]><plist><dict/></plist>"
          .utf8),
      expected: .dictionary([:]), foundationReads: false),
    Case(
      testDescription: "attributes",
      bytes: Array(
        "<plist version='1.0' xmlns:x = \"a>b\"><dict a=\"1\"><key>k</key><string lang=\"en\">v</string></dict></plist>".utf8),
      expected: .dictionary(["k": .string("v")]), foundationReads: false),
    Case(
      testDescription: "data and dates",
      bytes: xml("<array><data>AAEC\n  AwQ=</data><date>2026-01-01T00:00:00Z</date><date>1969-07-20T20:17:40Z</date></array>"),
      expected: .array([
        .data(Data([0, 1, 2, 3, 4])), .date(Date(timeIntervalSince1970: 1_767_225_600)),
        .date(Date(timeIntervalSince1970: -14_182_940)),
      ])),
    Case(
      testDescription: "empty elements written out",
      bytes: xml("<array><true></true><dict></dict><array></array><string></string></array>"),
      expected: .array([.boolean(true), .dictionary([:]), .array([]), .string("")])),
    Case(
      testDescription: "no <plist> element, a byte-order mark",
      bytes: [0xEF, 0xBB, 0xBF] + Array("<?xml version=\"1.0\"?>\n<dict><key>a</key><true/></dict>\n".utf8),
      expected: .dictionary(["a": .boolean(true)]), foundationReads: false),
  ]

  static let openStepCases: [Case] = [
    Case(
      testDescription: "OpenStep dictionary",
      bytes: Array(
        """
        // an Info.plist written by hand
        { CFBundleName = Reverse; "quoted key" = "a \\"b\\"\\n\\U00e9\\101"; /* a list: */ list = (a, 'b c', <0001 02>,);
          empty = {}; none = (); path = /usr/lib:x-y.z_$+1; }
        """.utf8),
      expected: .dictionary([
        "CFBundleName": .string("Reverse"), "quoted key": .string("a \"b\"\néA"),
        "list": .array([.string("a"), .string("b c"), .data(Data([0, 1, 2]))]), "empty": .dictionary([:]), "none": .array([]),
        "path": .string("/usr/lib:x-y.z_$+1"),
      ]), foundationReads: false),
    Case(
      testDescription: "OpenStep array with a surrogate pair", bytes: Array("( 1, \"\\UD83D\\UDE00\" )\n".utf8),
      expected: .array([.string("1"), .string("😀")]), foundationReads: false),
  ]

  static let binaryCases: [Case] = [
    Case(
      testDescription: "binary, as Foundation writes it",
      bytes: {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return Array(try! encoder.encode(["a": ["b", "c"], "d": ["e"]]))
      }(), expected: .dictionary(["a": .array([.string("b"), .string("c")]), "d": .array([.string("e")])])),
    Case(
      testDescription: "binary scalars of every kind",
      bytes: BinaryPlistBytes.file([
        BinaryPlistBytes.array(Array(1...9)),
        [0x10, 0x2A], [0x11, 0x01, 0x00], [0x13] + [UInt8](repeating: 0xFF, count: 8),
        [0x23, 0x40, 0x04, 0, 0, 0, 0, 0, 0], [0x09], [0x08], [0x33, 0, 0, 0, 0, 0, 0, 0, 0], [0x43, 1, 2, 3],
        [0x63, 0x00, 0xE9, 0xD8, 0x3D, 0xDE, 0x00],
      ]),
      expected: .array([
        .integer(42), .integer(256), .integer(-1), .real(2.5), .boolean(true), .boolean(false),
        .date(Date(timeIntervalSinceReferenceDate: 0)), .data(Data([1, 2, 3])), .string("é😀"),
      ])),
  ]

  @Test(arguments: xmlCases + openStepCases + binaryCases) func readsEachFormat(_ test: Case) throws {
    #expect(try PropertyListValue.parse(test.bytes) == test.expected)
  }

  @Test(arguments: (xmlCases + binaryCases).filter(\.foundationReads)) func agreesWithFoundation(_ test: Case) throws {
    let foundation = try PropertyListDecoder().decode(FoundationValue.self, from: Data(test.bytes)).value
    #expect(try PropertyListValue.parse(test.bytes) == foundation)
  }

  /// A key written twice, in each format, and the path the error names.
  struct Duplicate: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var bytes: [UInt8]
    var path: String
  }

  static let duplicates: [Duplicate] = [
    Duplicate(
      testDescription: "XML, top level",
      bytes: xml("<dict><key>CFBundleName</key><string>A</string><key>CFBundleName</key><string>B</string></dict>"),
      path: "CFBundleName"),
    Duplicate(
      testDescription: "XML, nested",
      bytes: xml(
        "<dict><key>EXAppExtensionAttributes</key><dict><key>EXExtensionPointIdentifier</key><string>a</string><key>EXExtensionPointIdentifier</key><string>b</string></dict></dict>"
      ),
      path: "EXAppExtensionAttributes.EXExtensionPointIdentifier"),
    Duplicate(
      testDescription: "XML, in an array",
      bytes: xml(
        "<dict><key>TPSettings</key><array><dict/><dict><key>Key</key><string>a</string><key>Key</key><string>a</string></dict></array></dict>"
      ),
      path: "TPSettings[1].Key"),
    Duplicate(
      testDescription: "XML, the same key written with an entity and a character reference",
      bytes: xml("<dict><key>a&amp;b</key><true/><key>a&#38;b</key><false/></dict>"),
      path: "a&b"),
    Duplicate(
      testDescription: "XML, canonically equivalent keys (é precomposed and decomposed)",
      bytes: xml("<dict><key>\u{E9}</key><true/><key>e\u{301}</key><false/></dict>"),
      path: "\u{E9}"),
    Duplicate(testDescription: "OpenStep", bytes: Array("{ a = { b = 1; \"b\" = 2; }; }".utf8), path: "a.b"),
    Duplicate(
      testDescription: "binary",
      bytes: BinaryPlistBytes.file([
        BinaryPlistBytes.dictionary([(1, 2), (1, 3)]), BinaryPlistBytes.string("key"), BinaryPlistBytes.string("x"), [0x09],
      ]), path: "key"),
  ]

  @Test(arguments: duplicates) func refusesDuplicateKeysNamingThem(_ test: Duplicate) {
    #expect(throws: PropertyListLimits.Violation.duplicateKey(test.path)) { try PropertyListValue.parse(test.bytes) }
  }

  /// A document nested `depth` levels deep, in one format.
  struct Nesting: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var document: @Sendable (_ depth: Int) -> [UInt8]
  }

  static let nestings: [Nesting] = [
    Nesting(testDescription: "XML arrays") {
      xml(String(repeating: "<array>", count: $0) + String(repeating: "</array>", count: $0))
    },
    Nesting(testDescription: "XML dictionaries") {
      xml(String(repeating: "<dict><key>k</key>", count: $0 - 1) + "<dict/>" + String(repeating: "</dict>", count: $0 - 1))
    },
    Nesting(testDescription: "OpenStep") { Array((String(repeating: "(", count: $0) + String(repeating: ")", count: $0)).utf8) },
    Nesting(testDescription: "binary") { depth in
      BinaryPlistBytes.file((0..<depth).map { BinaryPlistBytes.array($0 == depth - 1 ? [] : [$0 + 1]) })
    },
  ]

  @Test(arguments: nestings) func nestingAtTheLimitPassesAndOneDeeperFails(_ test: Nesting) throws {
    _ = try PropertyListValue.parse(test.document(PropertyListLimits.maximumDepth))
    #expect(throws: PropertyListLimits.Violation.tooDeep) {
      try PropertyListValue.parse(test.document(PropertyListLimits.maximumDepth + 1))
    }
  }

  @Test func diagnosticsSayWhereTheFileIsWrong() {
    #expect(throws: PropertyListLimits.Violation.malformed("line 3: a <key> without a value")) {
      try PropertyListValue.parse(Array("<plist>\n<dict>\n<key>a</key></dict></plist>".utf8))
    }
    #expect(throws: PropertyListLimits.Violation.malformed("line 1: ';' must end each dictionary entry")) {
      try PropertyListValue.parse(Array("{ a = b }".utf8))
    }
  }
}

/// A property-list value as Foundation's decoder reads it, to compare with ours.
private struct FoundationValue: Decodable {
  var value: PropertyListValue

  init(from decoder: any Decoder) throws {
    let single = try decoder.singleValueContainer()
    if let text = try? single.decode(String.self) {
      value = .string(text)
    } else if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
      var entries: [String: PropertyListValue] = [:]
      for key in keyed.allKeys { entries[key.stringValue] = try keyed.decode(FoundationValue.self, forKey: key).value }
      value = .dictionary(entries)
    } else if let flag = try? single.decode(Bool.self) {
      value = .boolean(flag)
    } else if var unkeyed = try? decoder.unkeyedContainer() {
      var elements: [PropertyListValue] = []
      while !unkeyed.isAtEnd { elements.append(try unkeyed.decode(FoundationValue.self).value) }
      value = .array(elements)
    } else if let number = try? single.decode(Int.self) {
      value = .integer(number)
    } else if let number = try? single.decode(Double.self) {
      value = .real(number)
    } else if let date = try? single.decode(Date.self) {
      value = .date(date)
    } else {
      value = .data(try single.decode(Data.self))
    }
  }

  private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
