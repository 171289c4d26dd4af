import FoundationEssentials
import System

/// The text a command works on, from an argument or stdin, checked before any
/// provider sees it.
struct InputText {
  /// The largest input accepted.
  static let maximumBytes = 4 << 20

  /// The text itself, without the one trailing newline stdin usually carries.
  var text: String
  /// Whether it came from stdin with a trailing newline (echoed on output).
  var hadTrailingNewline: Bool

  /// Reads `argument`, or stdin when it is nil.
  static func read(argument: String?, command: any Command.Type, optionName: String) throws(CommandError) -> InputText {
    if let argument {
      return try check(Array(argument.utf8), source: optionName)
    }
    guard !Syscalls.isTerminal(.standardInput) else {
      throw .usage("no text to translate: pass \(optionName) or pipe text on stdin", of: command)
    }
    var bytes: [UInt8]
    do throws(Errno) { bytes = try Syscalls.readAll(.standardInput, limit: maximumBytes) } catch {
      throw CommandError("cannot read stdin: \(error)", exitCode: .invalidInput)
    }
    // One line feed byte, whatever precedes it: a text that ends in "\r"
    // keeps it (Swift's "\r\n" is one Character, which hasSuffix("\n") misses).
    let hadTrailingNewline = bytes.last == UInt8(ascii: "\n")
    if hadTrailingNewline { bytes.removeLast() }
    var input = try check(bytes, source: "stdin")
    input.hadTrailingNewline = hadTrailingNewline
    return input
  }

  private static func check(_ bytes: [UInt8], source: String) throws(CommandError) -> InputText {
    guard bytes.count <= maximumBytes else { throw tooLarge() }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      let offset = firstInvalidOffset(bytes)
      throw CommandError(
        "the text from \(source) is not valid UTF-8 (first bad byte at offset \(offset)); convert it, for example with iconv",
        exitCode: .invalidInput)
    }
    return InputText(text: text, hadTrailingNewline: false)
  }

  private static func tooLarge() -> CommandError {
    CommandError("the text is larger than \(maximumBytes >> 20) MiB; split it", exitCode: .invalidInput)
  }

  private static func firstInvalidOffset(_ bytes: [UInt8]) -> Int {
    var low = 0
    var high = bytes.count
    // The longest valid prefix, found by bisection; the bad byte is within 3 of it.
    while low < high {
      let middle = (low + high + 1) / 2
      if String(validating: bytes[0..<middle], as: UTF8.self) != nil { low = middle } else { high = middle - 1 }
    }
    for end in (low + 1)...min(low + 4, bytes.count) where String(validating: bytes[0..<end], as: UTF8.self) != nil {
      low = end
    }
    return low
  }
}
