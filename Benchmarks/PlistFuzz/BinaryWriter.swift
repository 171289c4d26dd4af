/// Writes a `bplist00` file: objects in depth-first order, keys sorted,
/// two-byte references and four-byte offsets. Small and deterministic; only
/// for the fuzzer's corpus and its generated graphs.
enum BinaryWriter {
  static func file(_ value: FuzzCorpus.PropertyListValue) -> [UInt8] {
    var objects: [[UInt8]] = []
    func add(_ value: FuzzCorpus.PropertyListValue) -> Int {
      let number = objects.count
      objects.append([])
      switch value {
      case .string(let text):
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
          objects[number] = header(0x50, text.utf8.count) + Array(text.utf8)
        } else {
          let units = Array(text.utf16)
          objects[number] = header(0x60, units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
      case .integer(let number2): objects[number] = [0x13] + bigEndian(number2, size: 8)
      case .real(let real): objects[number] = [0x23] + bigEndian(Int(bitPattern: UInt(real.bitPattern)), size: 8)
      case .boolean(let flag): objects[number] = [flag ? 0x09 : 0x08]
      case .data(let bytes): objects[number] = header(0x40, bytes.count) + bytes
      case .array(let elements):
        let references = elements.map(add)
        objects[number] = header(0xA0, references.count) + references.flatMap { bigEndian($0, size: 2) }
      case .dictionary(let entries):
        let sorted = entries.sorted { $0.key < $1.key }
        let keys = sorted.map { add(.string($0.key)) }
        let values = sorted.map { add($0.value) }
        objects[number] = header(0xD0, keys.count) + (keys + values).flatMap { bigEndian($0, size: 2) }
      }
      return number
    }
    _ = add(value)
    return assemble(objects, referenceSize: 2)
  }

  /// A file of already encoded objects (references of `referenceSize` bytes), object 0 on top.
  static func assemble(_ objects: [[UInt8]], referenceSize: Int, top: Int = 0) -> [UInt8] {
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in objects {
      offsets.append(bytes.count)
      bytes += object
    }
    let table = bytes.count
    for offset in offsets { bytes += bigEndian(offset, size: 4) }
    bytes += [0, 0, 0, 0, 0, 0, 4, UInt8(referenceSize)]
    bytes += bigEndian(objects.count, size: 8) + bigEndian(top, size: 8) + bigEndian(table, size: 8)
    return bytes
  }

  /// A marker with its count, inline below 15 or as a following integer object.
  static func header(_ marker: UInt8, _ count: Int) -> [UInt8] {
    count < 15 ? [marker | UInt8(count)] : [marker | 0x0F, 0x13] + bigEndian(count, size: 8)
  }

  static func bigEndian(_ value: Int, size: Int) -> [UInt8] {
    (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - $0))) }
  }
}
