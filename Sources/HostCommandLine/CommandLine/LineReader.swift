import System

/// Reads stdin a batch of lines at a time for `translate --lines`: it waits
/// for one whole line, then takes whatever else has already arrived, so output
/// starts before input ends and a fast producer still gets large batches.
struct LineReader {
  private var pending: [UInt8] = []
  /// How much of `pending` has been searched for a newline.
  private var scanned = 0
  private var atEnd = false
  private var lineNumber = 0
  private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

  /// The next lines (without their newlines), at most `limit`; nil at the end.
  /// - Throws: exit 65 for a line that is not UTF-8, naming it.
  mutating func nextBatch(limit: Int = 2048) throws(CommandError) -> [String]? {
    while !atEnd && !pending[scanned...].contains(UInt8(ascii: "\n")) {
      scanned = pending.count
      guard pending.count <= InputText.maximumBytes else {
        throw CommandError(
          "line \(lineNumber + 1) of stdin is longer than \(InputText.maximumBytes >> 20) MiB; split it", exitCode: .invalidInput)
      }
      try fill(blocking: true)
    }
    while !atEnd && pending.count < limit * 64, Self.readable() { try fill(blocking: false) }
    var lines: [String] = []
    var start = pending.startIndex
    while lines.count < limit, let end = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
      lines.append(try decode(pending[start..<end]))
      start = end + 1
    }
    pending.removeSubrange(..<start)
    scanned = 0
    if atEnd && !pending.isEmpty && lines.count < limit {
      lines.append(try decode(pending[...]))
      pending.removeAll()
    }
    return lines.isEmpty && atEnd ? nil : lines
  }

  private mutating func fill(blocking: Bool) throws(CommandError) {
    let count: Int
    do throws(Errno) { count = try Syscalls.read(.standardInput, into: &chunk) } catch {
      guard error == .wouldBlock else { throw CommandError("cannot read stdin: \(error)", exitCode: .invalidInput) }
      // A non-blocking stdin (shared with the program that feeds it): wait for more.
      _ = try? Syscalls.waitReadable(.standardInput)
      return
    }
    if count == 0 { atEnd = true } else { pending += chunk[0..<count] }
  }

  private mutating func decode(_ bytes: ArraySlice<UInt8>) throws(CommandError) -> String {
    lineNumber += 1
    guard let line = String(validating: bytes, as: UTF8.self) else {
      throw CommandError(
        "line \(lineNumber) of stdin is not valid UTF-8; convert it, for example with iconv", exitCode: .invalidInput)
    }
    return line
  }

  /// Whether stdin has data now.
  private static func readable() -> Bool {
    (try? Syscalls.waitReadable(.standardInput, timeout: .zero)) == true
  }
}
