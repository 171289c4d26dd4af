import FoundationEssentials

/// Reads a `bplist00` binary property list by walking its object graph from
/// the top object on an explicit stack.
///
/// A binary list is a graph, not a tree: an object may be referenced many
/// times (a 200-byte file can describe 2^40 paths) or contain itself. Every
/// offset, count and reference is checked against the file before it is
/// used; `PropertyListBuilder` counts each reference as a value (bounding
/// expansion by `PropertyListLimits.maximumObjects`) and each open container
/// as a level (so a cycle is refused as too deep). Strings, numbers and data
/// are decoded once per object and shared between references, so memory stays
/// proportional to the file. Sets, UIDs (keyed archives) and null are not
/// property-list values a manifest has, and are refused.
struct BinaryPropertyListReader {
  private let bytes: [UInt8]
  private let offsetSize: Int
  private let referenceSize: Int
  private let objectCount: Int
  private let topObject: Int
  /// Where the offset table starts; objects lie between the header and it.
  private let tableOffset: Int
  private var builder = PropertyListBuilder()
  /// Scalars already decoded, by object number.
  private var scalars: [Int: PropertyListValue] = [:]

  /// An open array or dictionary: where its references are and how far it has been read.
  private struct Container {
    var isDictionary: Bool
    var count: Int
    var references: Int
    var next = 0
  }

  /// The top-level value of a binary property list (the bytes start with `bplist00`).
  static func read(_ bytes: [UInt8]) throws(PropertyListLimits.Violation) -> PropertyListValue {
    var reader = try BinaryPropertyListReader(bytes: bytes)
    return try reader.document()
  }

  private init(bytes: [UInt8]) throws(PropertyListLimits.Violation) {
    self.bytes = bytes
    guard bytes.count >= 8 + 1 + 32 else { throw .malformed("shorter than a binary property list") }
    let trailer = bytes.count - 32
    offsetSize = Int(bytes[trailer + 6])
    referenceSize = Int(bytes[trailer + 7])
    objectCount = try Self.integer(bytes, at: trailer + 8, size: 8, limit: bytes.count)
    topObject = try Self.integer(bytes, at: trailer + 16, size: 8, limit: bytes.count)
    tableOffset = try Self.integer(bytes, at: trailer + 24, size: 8, limit: bytes.count)
    guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), objectCount > 0, topObject < objectCount,
      tableOffset > 8, tableOffset < trailer, objectCount <= (trailer - tableOffset) / offsetSize
    else { throw .malformed("a trailer whose sizes, counts or offsets do not fit the file") }
  }

  private mutating func document() throws(PropertyListLimits.Violation) -> PropertyListValue {
    var containers: [Container] = []
    if let container = try visit(topObject) { containers.append(container) }
    while !containers.isEmpty {
      let last = containers.count - 1
      let container = containers[last]
      guard container.next < container.count else {
        builder.close()
        containers.removeLast()
        continue
      }
      containers[last].next += 1
      let item = container.references + container.next * referenceSize
      if container.isDictionary {
        let key = try reference(at: item)
        guard case .string(let name) = try scalar(key) else {
          throw .malformed("object \(key), a dictionary key, is not a string")
        }
        try builder.key(name)
        if let child = try visit(try reference(at: item + container.count * referenceSize)) { containers.append(child) }
      } else {
        if let child = try visit(try reference(at: item)) { containers.append(child) }
      }
    }
    guard let root = builder.root else { preconditionFailure("the walk ends with the top object closed") }
    return root
  }

  /// Adds a scalar to the builder, or opens a container and returns it to be read.
  private mutating func visit(_ object: Int) throws(PropertyListLimits.Violation) -> Container? {
    let start = try offset(of: object)
    let kind = bytes[start] >> 4
    guard kind == 0xA || kind == 0xD else {
      try builder.value(try scalar(object))
      return nil
    }
    let isDictionary = kind == 0xD
    let (count, references) = try length(at: start)
    guard count <= (tableOffset - references) / (referenceSize * (isDictionary ? 2 : 1)) else {
      throw .malformed("object \(object) has more references than the file has room for")
    }
    try builder.open(dictionary: isDictionary)
    return Container(isDictionary: isDictionary, count: count, references: references)
  }

  /// A string, number, Boolean, date or data object, decoded once.
  private mutating func scalar(_ object: Int) throws(PropertyListLimits.Violation) -> PropertyListValue {
    if let value = scalars[object] { return value }
    let start = try offset(of: object)
    let marker = bytes[start]
    let value: PropertyListValue
    switch (marker >> 4, marker & 0x0F) {
    case (0x0, 0x8): value = .boolean(false)
    case (0x0, 0x9): value = .boolean(true)
    case (0x1, let exponent) where exponent <= 4:
      let size = 1 << Int(exponent)
      guard start + 1 + size <= tableOffset else { throw .malformed("object \(object) runs into the offset table") }
      // 1, 2 and 4 bytes are unsigned, 8 are two's complement; 16 (an unsigned 64-bit value) must fit Int.
      var raw: UInt64 = 0
      for byte in bytes[(start + 1 + Swift.max(0, size - 8))..<(start + 1 + size)] { raw = raw << 8 | UInt64(byte) }
      if size == 16 {
        guard bytes[(start + 1)..<(start + 9)].allSatisfy({ $0 == 0 }), raw <= UInt64(Int.max) else {
          throw .malformed("object \(object) is an integer beyond ±2^63")
        }
      }
      value = .integer(Int(truncatingIfNeeded: raw))
    case (0x2, 0x2):
      value = .real(
        Double(Float(bitPattern: UInt32(try Self.integer(bytes, at: start + 1, size: 4, limit: tableOffset, raw: true)))))
    case (0x2, 0x3):
      value = .real(
        Double(
          bitPattern: UInt64(bitPattern: Int64(try Self.integer(bytes, at: start + 1, size: 8, limit: tableOffset, raw: true)))))
    case (0x3, 0x3):
      let seconds = Double(
        bitPattern: UInt64(bitPattern: Int64(try Self.integer(bytes, at: start + 1, size: 8, limit: tableOffset, raw: true))))
      value = .date(Date(timeIntervalSinceReferenceDate: seconds))
    case (0x4, _), (0x5, _), (0x6, _):
      let (count, payload) = try length(at: start)
      let size = marker >> 4 == 0x6 ? 2 : 1
      guard count <= (tableOffset - payload) / size else { throw .malformed("object \(object) runs into the offset table") }
      let content = bytes[payload..<(payload + count * size)]
      switch marker >> 4 {
      case 0x4:
        value = .data(Data(content))
      case 0x5:
        guard content.allSatisfy({ $0 < 0x80 }) else {
          throw .malformed("object \(object), an ASCII string, holds a byte above 127")
        }
        value = .string(String(decoding: content, as: UTF8.self))
      default:
        let units = (0..<count).map { UInt16(content[payload + 2 * $0]) << 8 | UInt16(content[payload + 2 * $0 + 1]) }
        guard let text = String(validating: units, as: UTF16.self) else {
          throw .malformed("object \(object) is not valid UTF-16")
        }
        value = .string(text)
      }
    default:
      throw .malformed("object \(object) is of a type a manifest cannot hold (marker 0x\(String(marker, radix: 16)))")
    }
    scalars[object] = value
    return value
  }

  // MARK: Structure

  /// Where object `object` starts.
  private func offset(of object: Int) throws(PropertyListLimits.Violation) -> Int {
    guard object < objectCount else { throw .malformed("a reference to object \(object) of \(objectCount)") }
    let value = try Self.integer(bytes, at: tableOffset + object * offsetSize, size: offsetSize, limit: bytes.count - 32)
    guard value >= 8, value < tableOffset else { throw .malformed("object \(object) lies outside the object area") }
    return value
  }

  /// The object number stored at `position` in a container's references.
  private func reference(at position: Int) throws(PropertyListLimits.Violation) -> Int {
    try Self.integer(bytes, at: position, size: referenceSize, limit: tableOffset)
  }

  /// The element count of the object at `start` (in its marker, or in the
  /// integer object after it) and where its content begins.
  private func length(at start: Int) throws(PropertyListLimits.Violation) -> (count: Int, content: Int) {
    let nibble = Int(bytes[start] & 0x0F)
    guard nibble == 0x0F else { return (nibble, start + 1) }
    guard start + 1 < tableOffset, bytes[start + 1] >> 4 == 0x1, bytes[start + 1] & 0x0F <= 3 else {
      throw .malformed("the object at byte \(start) has a malformed count")
    }
    let size = 1 << Int(bytes[start + 1] & 0x0F)
    return (try Self.integer(bytes, at: start + 2, size: size, limit: tableOffset), start + 2 + size)
  }

  /// A big-endian unsigned integer of `size` bytes at `offset`, ending before
  /// `limit`; unless `raw`, it must be small enough to be a count or offset.
  private static func integer(
    _ bytes: [UInt8], at offset: Int, size: Int, limit: Int, raw: Bool = false
  ) throws(PropertyListLimits.Violation) -> Int {
    guard size <= 8, offset >= 0, offset <= limit - size else { throw .malformed("a value at byte \(offset) runs past its area") }
    var value: UInt64 = 0
    for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
    if raw { return Int(truncatingIfNeeded: value) }
    guard value <= UInt64(Int.max / 4) else { throw .malformed("an offset or count at byte \(offset) is out of range") }
    return Int(value)
  }
}
