import FoundationEssentials
import System

/// The symbols a provider's shared object exports, read from its ELF
/// dynamic symbol table without loading it: `validate` names those beyond
/// the entry points.
package enum ExportedSymbols {
  /// The entry points a provider exports (ABI 2, ABI 1), and `main`, which
  /// `@main` makes a Swift provider export.
  package static let entryPoints: Set<String> = ["translation_provider_entry_v2", "translation_provider_entry", "main"]

  /// The defined global and weak functions and objects of default or
  /// protected visibility (Swift's) in `.dynsym`, sorted. ELF64 little-endian only (the host's).
  package static func read(_ path: String) throws -> [String] {
    let file = try Data(contentsOf: URL(fileURLWithPath: path))
    return file.withUnsafeBytes { bytes -> [String] in
      func read<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T? {
        guard offset >= 0, offset + MemoryLayout<T>.size <= bytes.count else { return nil }
        return T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
      }
      guard bytes.count > 64, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46, bytes[4] == 2,
        bytes[5] == 1, let sectionsAt = read(UInt64.self, at: 0x28), let sectionSize = read(UInt16.self, at: 0x3A),
        let sectionCount = read(UInt16.self, at: 0x3C), sectionSize >= 64
      else { return [] }
      var names: Set<String> = []
      for index in 0..<Int(sectionCount) {
        let header = Int(sectionsAt) + index * Int(sectionSize)
        guard read(UInt32.self, at: header + 4) == 11,  // SHT_DYNSYM
          let symbolsAt = read(UInt64.self, at: header + 24), let symbolsSize = read(UInt64.self, at: header + 32),
          let link = read(UInt32.self, at: header + 40),
          let stringsAt = read(UInt64.self, at: Int(sectionsAt) + Int(link) * Int(sectionSize) + 24),
          let stringsSize = read(UInt64.self, at: Int(sectionsAt) + Int(link) * Int(sectionSize) + 32),
          stringsAt + stringsSize <= UInt64(bytes.count), symbolsAt + symbolsSize <= UInt64(bytes.count)
        else { continue }
        // Symbols: name (4), info (1), other (1), section (2), value (8), size (8).
        for symbol in stride(from: Int(symbolsAt), to: Int(symbolsAt + symbolsSize) - 23, by: 24) {
          guard let nameAt = read(UInt32.self, at: symbol), let info = read(UInt8.self, at: symbol + 4),
            let other = read(UInt8.self, at: symbol + 5), let section = read(UInt16.self, at: symbol + 6)
          else { continue }
          let binding = info >> 4
          let type = info & 0xF
          guard section != 0, binding == 1 || binding == 2, type == 1 || type == 2, other & 0x3 == 0 || other & 0x3 == 3,
            UInt64(nameAt) < stringsSize
          else { continue }
          let start = Int(stringsAt) + Int(nameAt)
          let end = bytes[start..<Int(stringsAt + stringsSize)].firstIndex(of: 0) ?? Int(stringsAt + stringsSize)
          names.insert(String(decoding: bytes[start..<end], as: UTF8.self))
        }
      }
      return names.sorted()
    }
  }
}
