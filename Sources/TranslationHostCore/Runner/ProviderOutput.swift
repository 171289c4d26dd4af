import Dispatch
import Glibc

/// Carries what a provider's processes print (their stdout and stderr, one
/// socket used as a pipe) to the host's stderr, each line prefixed with the provider, and
/// never more than `limit` bytes: a provider that floods is drained, not
/// echoed, and cannot block on a full pipe.
final class ProviderOutput: @unchecked Sendable {
  /// The most bytes shown per runner; the rest is read and dropped.
  static let limit = 64 * 1024

  /// The end the runner writes to; the host closes its copy after spawning.
  let writeEnd: Int32
  private let readEnd: Int32
  private let prefix: [UInt8]
  private let done = DispatchSemaphore(value: 0)

  init(provider: String) throws(Errno) {
    // A socket pair, because it can be made close-on-exec atomically.
    (readEnd, writeEnd) = try Syscalls.socketPair()
    prefix = Array("translation-host: provider '\(provider)': ".utf8)
  }

  /// Closes both ends when no runner was started.
  func abandon() {
    close(writeEnd)
    close(readEnd)
  }

  /// Starts forwarding; returns at once.
  func start() {
    DispatchQueue.global().async { [self] in
      forward()
      done.signal()
    }
  }

  /// Waits up to `milliseconds` for the runner's processes to close the pipe,
  /// so their last words are shown before the host reports on them.
  func wait(milliseconds: Int) {
    _ = done.wait(timeout: .now() + .milliseconds(milliseconds))
  }

  private func forward() {
    defer { close(readEnd) }
    var shown = 0
    var truncated = false
    var line: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      guard !truncated else { continue }
      for byte in chunk[0..<count] {
        guard shown < Self.limit else {
          truncated = true
          emit(line + Array("… (more output dropped)\n".utf8))
          line.removeAll()
          break
        }
        line.append(byte)
        shown += 1
        if byte == UInt8(ascii: "\n") {
          emit(line)
          line.removeAll(keepingCapacity: true)
        }
      }
    }
    if !line.isEmpty { emit(line + [UInt8(ascii: "\n")]) }
  }

  /// Writes one line, its control characters escaped (but the final newline).
  private func emit(_ line: [UInt8]) {
    let text = String(decoding: line.last == UInt8(ascii: "\n") ? line.dropLast() : line[...], as: UTF8.self)
    let bytes = prefix + Array(text.escapingControlCharacters(keeping: ["\t"]).utf8) + [UInt8(ascii: "\n")]
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
      }
    }
  }
}
