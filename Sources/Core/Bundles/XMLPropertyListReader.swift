import FoundationEssentials

/// Reads an XML property list in one pass, without recursion.
///
/// Manifests come from bundles anyone may drop in a provider folder, so the
/// reader must be linear in the input and bounded in stack and memory whatever
/// the bytes: Foundation's parser recurses once per element (20,000 nested
/// `<plist>` overflow the stack) and its depth could only be guessed by a
/// pre-scan that disagreed with it about processing instructions. This reader
/// scans the bytes once, front to back, and leaves nesting to
/// `PropertyListBuilder`'s explicit stack, which also enforces the limits.
/// It is also the fast path: listing a thousand bundles cold must stay within
/// 100 ms, and Foundation's decoder, through `Decodable`, cost about a hundred
/// times more than these files are worth.
///
/// It reads what Apple's writers write and what people type: the XML
/// declaration, comments and processing instructions anywhere, a DOCTYPE
/// (whose internal subset may not declare entities: the host expands none,
/// and refuses rather than read a file differently from its author), CDATA,
/// the five predefined entities and character references, attributes (read
/// and ignored), and the elements `plist`, `dict`, `key`, `array`, `string`,
/// `integer` (decimal or `0x`), `real`, `true`, `false`, `date` and `data`
/// (base64). A `<plist>` inside the property list is refused. The text must be
/// UTF-8.
struct XMLPropertyListReader {
  private let bytes: [UInt8]
  private var index = 0
  private var builder = PropertyListBuilder()
  /// Decoded character data of the element being read, reused between elements.
  private var text: [UInt8] = []

  /// The top-level value of an XML property list.
  static func read(_ bytes: [UInt8]) throws(PropertyListLimits.Violation) -> PropertyListValue {
    var reader = XMLPropertyListReader(bytes: bytes)
    do {
      return try reader.document()
    } catch .malformed(let reason) {
      throw .malformed("line \(reader.line): \(reason)")
    }
  }

  private init(bytes: [UInt8]) { self.bytes = bytes }

  /// The line of the current position, for error messages.
  private var line: Int { PropertyListLimits.line(of: index, in: bytes) }

  private mutating func document() throws(PropertyListLimits.Violation) -> PropertyListValue {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    var plist = Wrapper.absent
    var sawDoctype = false
    while true {
      try skipMisc()
      guard index < bytes.count else { break }
      guard bytes[index] == UInt8(ascii: "<") else { throw .malformed("text outside an element") }
      if skip("<!DOCTYPE") {
        guard !sawDoctype, plist == .absent, builder.root == nil, builder.depth == 0 else {
          throw .malformed("a DOCTYPE after the start of the property list")
        }
        sawDoctype = true
        try doctype()
        continue
      }
      if matches("<!") { throw .malformed("CDATA or a declaration outside a <string>") }
      let tag = try self.tag()
      if tag.isEnd {
        switch tag.name {
        case "plist":
          guard plist == .open, builder.depth == 0, builder.root != nil else {
            throw .malformed("</plist> here closes nothing or an empty <plist>")
          }
          plist = .closed
        case "dict", "array":
          guard builder.depth > 0, builder.isInDictionary == (tag.name == "dict") else {
            throw .malformed("</\(tag.name)> without its <\(tag.name)>")
          }
          try closeContainer()
        default:
          throw .malformed("</\(tag.name)> without its <\(tag.name)>")
        }
        continue
      }
      guard plist != .closed else { throw .malformed("<\(tag.name)> after </plist>") }
      switch tag.name {
      case "plist":
        guard plist == .absent, builder.depth == 0, builder.root == nil else {
          throw .malformed("<plist> inside a property list; write one <plist> around the top-level value")
        }
        guard !tag.isEmpty else { throw .malformed("an empty <plist>") }
        plist = .open
      case "dict", "array":
        try builder.open(dictionary: tag.name == "dict")
        if tag.isEmpty { try closeContainer() }
      case "key":
        guard builder.isInDictionary, !builder.hasPendingKey else {
          throw .malformed("a <key> where a value must come (or outside a <dict>)")
        }
        try builder.key(try string(of: tag))
      case "string":
        try builder.value(.string(try string(of: tag)))
      case "integer":
        guard let value = PropertyListScalars.integer(try content(of: tag)[...]) else {
          throw .malformed("an <integer> that is not a whole number within ±2^63")
        }
        try builder.value(.integer(value))
      case "real":
        guard let value = PropertyListScalars.real(try content(of: tag)[...]) else {
          throw .malformed("a <real> that is not a number")
        }
        try builder.value(.real(value))
      case "date":
        guard let value = PropertyListScalars.date(try content(of: tag)[...]) else {
          throw .malformed("a <date> not written as YYYY-MM-DDTHH:MM:SSZ")
        }
        try builder.value(.date(value))
      case "data":
        guard let value = PropertyListScalars.base64(try content(of: tag)[...]) else {
          throw .malformed("<data> that is not base64")
        }
        try builder.value(.data(value))
      case "true", "false":
        guard try content(of: tag).allSatisfy(PropertyListScalars.isWhitespace) else {
          throw .malformed("<\(tag.name)> with content; write <\(tag.name)/>")
        }
        try builder.value(.boolean(tag.name == "true"))
      default:
        throw .malformed("an unknown element <\(tag.name)>")
      }
    }
    guard builder.depth == 0 else { throw .malformed("the file ends inside a <dict> or <array>") }
    guard let root = builder.root, plist != .open else { throw .malformed("the file ends before the property list does") }
    return root
  }

  /// Where the reader is with respect to the optional `<plist>` element.
  private enum Wrapper { case absent, open, closed }

  private mutating func closeContainer() throws(PropertyListLimits.Violation) {
    guard !builder.hasPendingKey else { throw .malformed("a <key> without a value") }
    builder.close()
  }

  // MARK: Tags

  private struct Tag {
    var name: String
    var isEnd = false
    /// Self-closing: `<name/>`.
    var isEmpty = false
  }

  /// Reads `<name attributes>`, `<name/>` or `</name>`; attribute values are skipped.
  private mutating func tag() throws(PropertyListLimits.Violation) -> Tag {
    index += 1  // "<"
    var tag = Tag(name: "")
    if index < bytes.count, bytes[index] == UInt8(ascii: "/") {
      tag.isEnd = true
      index += 1
    }
    let start = index
    while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
    guard index > start, index - start <= 32 else { throw .malformed("a '<' that starts no element") }
    tag.name = String(decoding: bytes[start..<index], as: UTF8.self)
    while true {
      skipWhitespace()
      guard index < bytes.count else { throw .malformed("the tag <\(tag.name)> is not closed") }
      switch bytes[index] {
      case UInt8(ascii: ">"):
        index += 1
        return tag
      case UInt8(ascii: "/") where !tag.isEnd:
        guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") else {
          throw .malformed("a stray '/' in <\(tag.name)>")
        }
        index += 2
        tag.isEmpty = true
        return tag
      default:
        guard !tag.isEnd else { throw .malformed("</\(tag.name)> with attributes") }
        try attribute(in: tag.name)
      }
    }
  }

  /// Skips `name = "value"` or `name = 'value'`.
  private mutating func attribute(in element: String) throws(PropertyListLimits.Violation) {
    let start = index
    while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
    skipWhitespace()
    guard index > start, index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
      throw .malformed("a malformed attribute in <\(element)>")
    }
    index += 1
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'"),
      let close = bytes[(index + 1)...].firstIndex(of: bytes[index])
    else { throw .malformed("an attribute value in <\(element)> without quotes around it") }
    index = close + 1
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"):
      true
    default: false
    }
  }

  // MARK: Character data

  /// The text of a `<key>` or `<string>`, which must be UTF-8.
  private mutating func string(of tag: Tag) throws(PropertyListLimits.Violation) -> String {
    guard let value = String(validating: try content(of: tag), as: UTF8.self) else {
      throw .malformed("<\(tag.name)> text that is not UTF-8")
    }
    return value
  }

  /// The character data of the element `tag` opened, up to and including its
  /// end tag, with entities, character references and CDATA decoded and
  /// comments and processing instructions left out. No element may nest in it.
  private mutating func content(of tag: Tag) throws(PropertyListLimits.Violation) -> [UInt8] {
    text.removeAll(keepingCapacity: true)
    guard !tag.isEmpty else { return text }
    while true {
      guard let special = bytes[index...].firstIndex(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else {
        throw .malformed("<\(tag.name)> is not closed")
      }
      text += bytes[index..<special]
      index = special
      if bytes[index] == UInt8(ascii: "&") {
        try entity()
      } else if skip("<![CDATA[") {
        let end = try position(of: "]]>", what: "CDATA section")
        text += bytes[index..<end]
        index = end + 3
      } else if skip("<!--") {
        index = try position(of: "-->", what: "comment") + 3
      } else if skip("<?") {
        index = try position(of: "?>", what: "processing instruction") + 2
      } else {
        let end = try self.tag()
        guard end.isEnd, end.name == tag.name else {
          throw .malformed("<\(end.isEnd ? "/" : "")\(end.name)> inside <\(tag.name)>")
        }
        return text
      }
    }
  }

  /// Decodes `&name;` or `&#number;` into `text`.
  private mutating func entity() throws(PropertyListLimits.Violation) {
    guard let semicolon = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
      throw .malformed("a '&' that starts no entity; write &amp;")
    }
    let name = bytes[(index + 1)..<semicolon]
    let scalar: Unicode.Scalar?
    switch String(decoding: name, as: UTF8.self) {
    case "lt": scalar = "<"
    case "gt": scalar = ">"
    case "amp": scalar = "&"
    case "quot": scalar = "\""
    case "apos": scalar = "'"
    case let reference where reference.hasPrefix("#x"):
      scalar = UInt32(reference.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
    case let reference where reference.hasPrefix("#"): scalar = UInt32(reference.dropFirst()).flatMap(Unicode.Scalar.init)
    default:
      throw .malformed(
        "the entity &\(String(decoding: name, as: UTF8.self)); is not one of XML's five, and the host expands no others")
    }
    guard let scalar, scalar.value != 0 else { throw .malformed("a character reference to no character") }
    text += Array(String(scalar).utf8)
    index = semicolon + 1
  }

  // MARK: Markup without content

  /// Skips whitespace, comments and processing instructions.
  private mutating func skipMisc() throws(PropertyListLimits.Violation) {
    while true {
      skipWhitespace()
      if skip("<!--") {
        index = try position(of: "-->", what: "comment") + 3
      } else if skip("<?") {
        index = try position(of: "?>", what: "processing instruction") + 2
      } else {
        return
      }
    }
  }

  /// Skips a DOCTYPE, refusing entity declarations in its internal subset.
  private mutating func doctype() throws(PropertyListLimits.Violation) {
    var inSubset = false
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        guard let close = bytes[(index + 1)...].firstIndex(of: bytes[index]) else {
          throw .malformed("a quoted string in the DOCTYPE that is not closed")
        }
        index = close + 1
        continue
      case UInt8(ascii: "[") where !inSubset:
        inSubset = true
      case UInt8(ascii: "]") where inSubset:
        inSubset = false
      case UInt8(ascii: "<") where inSubset:
        if skip("<!--") {
          index = try position(of: "-->", what: "comment") + 3
          continue
        }
        if matches("<!ENTITY") {
          throw .malformed("the DOCTYPE declares an entity; the host expands none, so remove the declaration")
        }
      case UInt8(ascii: ">") where !inSubset:
        index += 1
        return
      default:
        break
      }
      index += 1
    }
    throw .malformed("the DOCTYPE is not closed")
  }

  // MARK: Bytes

  private mutating func skipWhitespace() {
    while index < bytes.count, PropertyListScalars.isWhitespace(bytes[index]) { index += 1 }
  }

  /// Whether the input continues with `literal`.
  private func matches(_ literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    return literal.withUTF8Buffer { bytes[index..<index + count].elementsEqual($0) }
  }

  /// Consumes `literal` if the input continues with it.
  private mutating func skip(_ literal: StaticString) -> Bool {
    guard matches(literal) else { return false }
    index += literal.utf8CodeUnitCount
    return true
  }

  /// The position of the next `terminator` (of two or three bytes), from the current position.
  private func position(of terminator: StaticString, what: String) throws(PropertyListLimits.Violation) -> Int {
    let found = terminator.withUTF8Buffer { (pattern) -> Int? in
      var start = index
      while let candidate = bytes[start...].firstIndex(of: pattern[0]) {
        if candidate + pattern.count <= bytes.count, bytes[candidate..<candidate + pattern.count].elementsEqual(pattern) {
          return candidate
        }
        start = candidate + 1
      }
      return nil
    }
    guard let found else { throw .malformed("a \(what) that is not closed") }
    return found
  }
}
