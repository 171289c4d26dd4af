import Core

/// Makes fuzz case number `index` for a seed: a corpus file with one to four
/// mutations, or a generated hostile file. Each case depends only on (seed,
/// index), so a child process can start anywhere in the sequence and any case
/// can be made again to be saved or replayed.
struct CaseGenerator {
  private var random: SplitMix64
  private let seeds = FuzzCorpus.seeds

  /// The bytes of case `index`, and what it started from (for reports).
  static func make(seed: UInt64, index: Int) -> (bytes: [UInt8], origin: String) {
    var generator = CaseGenerator(random: SplitMix64(seed: seed ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15)))
    return generator.make()
  }

  private mutating func make() -> (bytes: [UInt8], origin: String) {
    if random.below(20) == 0 { return generated() }
    let seed = seeds[random.below(seeds.count)]
    var bytes = seed.bytes
    var steps: [String] = []
    for _ in 0..<(1 + random.below(4)) { steps.append(mutate(&bytes, format: seed.format)) }
    if bytes.count > PropertyListLimits.maximumBytes + 4096 {
      bytes.removeLast(bytes.count - PropertyListLimits.maximumBytes - 4096)
    }
    return (bytes, seed.name + ": " + steps.joined(separator: ", "))
  }

  // MARK: Mutations

  private mutating func mutate(_ bytes: inout [UInt8], format: FuzzCorpus.Format) -> String {
    let position = random.below(bytes.count + 1)
    switch random.below(format == .binary ? 12 : 10) {
    case 0:
      guard position < bytes.count else { return "nothing" }
      bytes[position] ^= 1 << UInt8(random.below(8))
      return "bit flip at \(position)"
    case 1:
      guard position < bytes.count else { return "nothing" }
      bytes[position] = Self.interestingBytes[random.below(Self.interestingBytes.count)]
      return "byte at \(position)"
    case 2:
      let count = Swift.min(bytes.count - position, 1 + random.below(random.below(2) == 0 ? 16 : Swift.max(1, bytes.count / 4)))
      bytes.removeSubrange(position..<(position + count))
      return "deletion at \(position)"
    case 3:
      let start = random.below(bytes.count)
      let chunk = bytes[start..<Swift.min(bytes.count, start + 1 + random.below(64))]
      bytes.insert(contentsOf: Array(chunk), at: position)
      return "duplicated range at \(position)"
    case 4:
      let other = seeds[random.below(seeds.count)].bytes
      let start = random.below(other.count)
      bytes.insert(contentsOf: other[start..<Swift.min(other.count, start + 1 + random.below(128))], at: position)
      return "splice at \(position)"
    case 5:
      bytes.removeLast(bytes.count - position)
      return "truncation at \(position)"
    case 6:
      let token = Self.tokens[random.below(Self.tokens.count)]
      bytes.insert(contentsOf: token.utf8, at: position)
      return "token \(token.debugDescription) at \(position)"
    case 7:
      return nest(&bytes, at: position, format: format)
    case 8:
      return duplicateKey(&bytes, format: format)
    case 9:
      // A long run of one token: slow scanners show up as time, not as crashes.
      let token = Self.tokens[random.below(Self.tokens.count)]
      let count = 1 + random.below(200_000 / Swift.max(1, token.utf8.count))
      bytes.insert(contentsOf: Array(repeating: Array(token.utf8), count: count).joined(), at: position)
      return "\(count) × \(token.debugDescription) at \(position)"
    case 10:
      return corruptTrailer(&bytes)
    default:
      return corruptObject(&bytes)
    }
  }

  /// Openers repeated up to 50,000 times, sometimes closed again, sometimes behind markup.
  private mutating func nest(_ bytes: inout [UInt8], at position: Int, format: FuzzCorpus.Format) -> String {
    let openers =
      format == .openStep
      ? [("(", ")"), ("{a=", ";}"), ("(a,", ")"), ("{\"k\"=<00>;a=", "}")]
      : [
        ("<array>", "</array>"), ("<dict><key>a</key>", "</dict>"), ("<plist>", "</plist>"),
        ("<?x </array>?><array>", "</array>"), ("<!--</array>--><array>", "</array>"), ("<plist><array>", "</array></plist>"),
        ("<array><string><![CDATA[</array>]]></string>", "</array>"),
      ]
    let (open, close) = openers[random.below(openers.count)]
    let depth = random.below(2) == 0 ? 28 + random.below(8) : 1 << (5 + random.below(11))
    var insertion = Array(repeating: Array(open.utf8), count: depth).joined().map { $0 }
    if random.below(2) == 0 { insertion += Array(repeating: Array(close.utf8), count: depth).joined() }
    bytes.insert(contentsOf: insertion, at: position)
    return "\(depth) × \(open.debugDescription) at \(position)"
  }

  /// Writes an existing key a second time in the same dictionary.
  private mutating func duplicateKey(_ bytes: inout [UInt8], format: FuzzCorpus.Format) -> String {
    switch format {
    case .xml:
      guard let key = occurrence(of: "<key>", in: bytes), let end = first("</key>", in: bytes, from: key) else {
        return "nothing"
      }
      bytes.insert(contentsOf: Array(bytes[key..<(end + 6)]) + Array("<true/>".utf8), at: key)
      return "duplicate XML key at \(key)"
    case .openStep:
      guard let semicolon = occurrence(of: ";", in: bytes) else { return "nothing" }
      var start = semicolon
      while start > 0, bytes[start - 1] != UInt8(ascii: ";"), bytes[start - 1] != UInt8(ascii: "{") { start -= 1 }
      bytes.insert(contentsOf: Array(bytes[start...semicolon]), at: semicolon + 1)
      return "duplicate OpenStep entry at \(start)"
    case .binary:
      // Point a dictionary's second key at its first key's object.
      for (offset, byte) in bytes.enumerated().dropFirst(8) where byte >> 4 == 0xD && byte & 0x0F >= 2 && offset + 4 < bytes.count
      {
        bytes[offset + 3] = bytes[offset + 1]
        bytes[offset + 4] = bytes[offset + 2]
        return "duplicate binary key in the dictionary at \(offset)"
      }
      return "nothing"
    }
  }

  private mutating func corruptTrailer(_ bytes: inout [UInt8]) -> String {
    guard bytes.count >= 32 else { return "nothing" }
    let fields = [(6, 1), (7, 1), (8, 8), (16, 8), (24, 8)]
    let (field, size) = fields[random.below(fields.count)]
    let values: [UInt64] = [0, 1, 2, 0xFF, 0xFFFF, 1 << 32, 1 << 62, UInt64(Int.max), .max, UInt64(bytes.count), random.next()]
    let value = values[random.below(values.count)]
    let start = bytes.count - 32 + field
    for i in 0..<size { bytes[start + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - i))) }
    return "trailer field \(field) = \(value)"
  }

  /// A huge count after a container or data marker, or a reference rewritten to make sharing and cycles.
  private mutating func corruptObject(_ bytes: inout [UInt8]) -> String {
    guard bytes.count > 41 else { return "nothing" }
    let position = 8 + random.below(bytes.count - 40)
    if random.below(2) == 0 {
      let marker = [0xAF, 0xDF, 0x4F, 0x5F, 0x6F][random.below(5)] as UInt8
      let count: [UInt8] = [
        [0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0x12, 0xFF, 0xFF, 0xFF, 0xFF], [0x14], [0x23],
      ][random.below(4)]
      bytes.replaceSubrange(position..<Swift.min(bytes.count - 32, position + 1 + count.count), with: [marker] + count)
      return "huge count at \(position)"
    }
    bytes[position] = UInt8(random.below(4))
    return "reference at \(position) to object \(bytes[position])"
  }

  // MARK: Generated files

  /// Binary graphs no mutation reaches in one step: deep chains, cycles, exponential sharing.
  private mutating func generated() -> (bytes: [UInt8], origin: String) {
    let size = 2 + random.below(random.below(2) == 0 ? 40 : 20_000)
    let size16 = Swift.min(size, 65_000)
    switch random.below(4) {
    case 0:
      let objects = (0..<size16).map {
        BinaryWriter.header(0xA0, $0 == size16 - 1 ? 0 : 1) + ($0 == size16 - 1 ? [] : BinaryWriter.bigEndian($0 + 1, size: 2))
      }
      return (BinaryWriter.assemble(objects, referenceSize: 2), "binary chain of \(size16) arrays")
    case 1:
      let objects = (0..<size16).map { BinaryWriter.header(0xA0, 1) + BinaryWriter.bigEndian(($0 + 1) % size16, size: 2) }
      return (BinaryWriter.assemble(objects, referenceSize: 2), "binary cycle of \(size16) arrays")
    case 2:
      let levels = Swift.min(size, 64)
      let objects = (0..<levels).map {
        $0 == levels - 1
          ? [0x09]
          : BinaryWriter.header(0xA0, 2) + BinaryWriter.bigEndian($0 + 1, size: 2) + BinaryWriter.bigEndian($0 + 1, size: 2)
      }
      return (BinaryWriter.assemble(objects, referenceSize: 2), "binary DAG of 2^\(levels) paths")
    default:
      let key = [0x51, UInt8(ascii: "k")] as [UInt8]
      let count = Swift.min(size, 5_000)
      let dictionary =
        BinaryWriter.header(0xD0, count) + Array(repeating: BinaryWriter.bigEndian(1, size: 2), count: count).joined()
        + Array(repeating: BinaryWriter.bigEndian(2, size: 2), count: count).joined()
      return (
        BinaryWriter.assemble([dictionary, key, [0x09]], referenceSize: 2), "binary dictionary with one key \(count) times"
      )
    }
  }

  // MARK: Helpers

  /// A random occurrence of `pattern`.
  private mutating func occurrence(of pattern: String, in bytes: [UInt8]) -> Int? {
    var found: [Int] = []
    var start = 0
    while let position = first(pattern, in: bytes, from: start) {
      found.append(position)
      start = position + 1
    }
    return found.isEmpty ? nil : found[random.below(found.count)]
  }

  private func first(_ pattern: String, in bytes: [UInt8], from start: Int) -> Int? {
    let pattern = Array(pattern.utf8)
    guard bytes.count >= pattern.count, start <= bytes.count - pattern.count else { return nil }
    return (start...(bytes.count - pattern.count)).first { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
  }

  static let interestingBytes: [UInt8] =
    [0x00, 0x0F, 0x7F, 0x80, 0xFF, 0xAF, 0xDF, 0x6F, 0x13] + Array("<>&\"'(){}=;,/*\\?!-[]".utf8)

  static let tokens = [
    "<?x ", "?>", "<!--", "-->", "<![CDATA[", "]]>", "<!DOCTYPE plist [<!ENTITY a \"b\">]>", "<!DOCTYPE plist [", "<!DOCTYPE",
    "]>",
    "&amp;", "&#x0;", "&#xD800;", "&#1114112;", "&a;", "&", "<plist>", "</plist>", "<plist version=\"1.0\">", "<dict>", "</dict>",
    "<dict/>",
    "<array>", "</array>", "<key>k</key>", "<key>", "<string>", "</string>", "<integer>0x8000000000000000</integer>",
    "<integer>-9223372036854775809</integer>", "<real>1e99999</real>", "<real>nan</real>", "<date>9999-99-99T99:99:99Z</date>",
    "<data>====</data>", "<data>A</data>", "<true/>", "<false></false>", "<x a='>'>", "(", ")", "{", "}", "=", ";", ",", "/*",
    "*/", "//",
    "\"", "'", "\\U", "\\UD800", "\\", "<", ">", "<0", "\u{FEFF}", "\u{E9}", "\u{301}", "bplist00",
  ]
}

/// Steele, Lea and Flood's SplitMix64: tiny, fast and the same everywhere.
struct SplitMix64 {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound`, or 0 when `bound` is not positive.
  mutating func below(_ bound: Int) -> Int { bound > 0 ? Int(next() % UInt64(bound)) : 0 }
}
