/// Builds `bplist00` files object by object, so tests can write graphs no
/// encoder would: deep chains, cycles, shared references, duplicate keys and
/// lying headers.
enum BinaryPlistBytes {
  /// An array object referring to `references`.
  static func array(_ references: [Int], referenceSize: Int = 1) -> [UInt8] {
    container(0xA0, references, referenceSize: referenceSize)
  }

  /// A dictionary object: keys and values are object numbers.
  static func dictionary(_ entries: [(key: Int, value: Int)], referenceSize: Int = 1) -> [UInt8] {
    var bytes = container(0xD0, entries.map(\.key), referenceSize: referenceSize)
    for entry in entries { bytes += bigEndian(entry.value, size: referenceSize) }
    return bytes
  }

  /// An ASCII string object.
  static func string(_ text: String) -> [UInt8] {
    precondition(text.utf8.count < 15 && text.utf8.allSatisfy { $0 < 0x80 })
    return [0x50 | UInt8(text.utf8.count)] + Array(text.utf8)
  }

  /// A whole file: the objects, an offset table of `offsetSize` bytes and the trailer.
  static func file(_ objects: [[UInt8]], top: Int = 0, referenceSize: Int = 1, offsetSize: Int = 4) -> [UInt8] {
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in objects {
      offsets.append(bytes.count)
      bytes += object
    }
    let table = bytes.count
    for offset in offsets { bytes += bigEndian(offset, size: offsetSize) }
    bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
    bytes += bigEndian(objects.count, size: 8) + bigEndian(top, size: 8) + bigEndian(table, size: 8)
    return bytes
  }

  static func bigEndian(_ value: Int, size: Int) -> [UInt8] {
    (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - $0))) }
  }

  private static func container(_ marker: UInt8, _ references: [Int], referenceSize: Int) -> [UInt8] {
    var bytes: [UInt8] =
      references.count < 15 ? [marker | UInt8(references.count)] : [marker | 0x0F, 0x13] + bigEndian(references.count, size: 8)
    for reference in references { bytes += bigEndian(reference, size: referenceSize) }
    return bytes
  }
}
