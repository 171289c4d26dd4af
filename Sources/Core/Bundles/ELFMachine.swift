/// The class, byte order and machine of an ELF file, enough to tell whether
/// this machine can load it.
struct ELFMachine: Equatable, CustomStringConvertible {
  var `class`: UInt8
  var data: UInt8
  var machine: Int

  /// What this host process is.
  static var host: ELFMachine {
    #if arch(x86_64)
      ELFMachine(class: 2, data: 1, machine: 62)
    #elseif arch(arm64)
      ELFMachine(class: 2, data: 1, machine: 183)
    #else
      ELFMachine(class: 0, data: 0, machine: 0)
    #endif
  }

  var description: String {
    let names = [
      3: "x86 (32-bit)", 8: "MIPS", 20: "PowerPC", 21: "PowerPC 64", 22: "s390", 40: "ARM (32-bit)", 62: "x86-64", 183: "AArch64",
      243: "RISC-V",
    ]
    let name = names[machine] ?? "machine \(machine)"
    let bits = `class` == 1 ? "32-bit" : `class` == 2 ? "64-bit" : "unknown class"
    let order = data == 1 ? "little-endian" : data == 2 ? "big-endian" : "unknown byte order"
    return "\(name) \(bits) \(order)"
  }
}
