import CEntryPointCall
import Foundation

/// Looks a symbol up in the symbol table (`.symtab`) of a loaded shared
/// object, which also lists what the object does not export: Swift gives
/// the functions of a provider's internal types local symbols, so `dlsym`
/// cannot find them. ELF64, little-endian (x86-64 and AArch64 Linux).
enum LocalSymbols {
  /// The address of the symbol `name` matches in the loaded object that
  /// contains `address`; nil when the object has no symbol table (it was
  /// stripped) or no such symbol.
  static func address(of name: SymbolName, inImageContaining address: UnsafeRawPointer) -> UnsafeRawPointer? {
    var path: UnsafePointer<CChar>?
    var base: UnsafeMutableRawPointer?
    guard tp_image_containing(address, &path, &base) != 0, let path, let base,
      let file = FileManager.default.contents(atPath: String(cString: path)),
      let value = symbolValue(of: name, in: file)
    else { return nil }
    return UnsafeRawPointer(base).advanced(by: Int(value))
  }

  /// A symbol name: `prefix`, then exactly `suffix`, in which `?` stands for
  /// any one ASCII capital (a substitution index in a mangled name).
  struct SymbolName {
    var prefix: [UInt8]
    var suffix: [UInt8]

    func matches(_ bytes: some Collection<UInt8>) -> Bool {
      guard bytes.count == prefix.count + suffix.count, bytes.starts(with: prefix) else { return false }
      return zip(bytes.dropFirst(prefix.count), suffix).allSatisfy { byte, wanted in
        wanted == UInt8(ascii: "?") ? (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) : byte == wanted
      }
    }
  }

  /// The value of the symbol `name` matches in the ELF file `file`.
  static func symbolValue(of name: SymbolName, in file: Data) -> UInt64? {
    file.withUnsafeBytes { bytes -> UInt64? in
      func read<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T? {
        guard offset >= 0, offset + MemoryLayout<T>.size <= bytes.count else { return nil }
        return T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
      }
      // The identification: "\x7fELF", 64-bit, little-endian.
      guard bytes.count > 64, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46, bytes[4] == 2,
        bytes[5] == 1, let sectionsAt = read(UInt64.self, at: 0x28), let sectionSize = read(UInt16.self, at: 0x3A),
        let sectionCount = read(UInt16.self, at: 0x3C), sectionSize >= 64
      else { return nil }
      for index in 0..<Int(sectionCount) {
        let header = Int(sectionsAt) + index * Int(sectionSize)
        guard read(UInt32.self, at: header + 4) == 2,  // SHT_SYMTAB
          let symbolsAt = read(UInt64.self, at: header + 24), let symbolsSize = read(UInt64.self, at: header + 32),
          let link = read(UInt32.self, at: header + 40)
        else { continue }
        let stringsHeader = Int(sectionsAt) + Int(link) * Int(sectionSize)
        guard let stringsAt = read(UInt64.self, at: stringsHeader + 24),
          let stringsSize = read(UInt64.self, at: stringsHeader + 32),
          Int(stringsAt) + Int(stringsSize) <= bytes.count, Int(symbolsAt) + Int(symbolsSize) <= bytes.count
        else { return nil }
        // Symbols: name (4), info (1), other (1), section (2), value (8), size (8).
        for symbol in stride(from: Int(symbolsAt), to: Int(symbolsAt + symbolsSize) - 23, by: 24) {
          let length = name.prefix.count + name.suffix.count
          guard let nameAt = read(UInt32.self, at: symbol), UInt64(nameAt) + UInt64(length) < stringsSize else {
            continue
          }
          let start = Int(stringsAt) + Int(nameAt)
          guard bytes[start + length] == 0, name.matches(bytes[start..<start + length]),
            let value = read(UInt64.self, at: symbol + 8), value != 0
          else { continue }
          return value
        }
      }
      return nil
    }
  }
}
