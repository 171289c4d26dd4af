import Dispatch
import Synchronization
import System

/// Carries what a provider's processes print (their stdout and stderr, one
/// socket used as a pipe) to the host's stderr, each line prefixed with the provider, and
/// never more than `limit` bytes: a provider that floods is drained, not
/// echoed, and cannot block on a full pipe.
package final class ProviderOutput: @unchecked Sendable {
  /// The most bytes the host writes per runner, prefixes and escapes
  /// included; the rest is read and dropped.
  static let limit = 64 * 1024

  /// The end the runner writes to; the host closes its copy after spawning.
  let writeEnd: FileDescriptor
  private let readEnd: FileDescriptor
  private let prefix: [UInt8]
  private let done = DispatchSemaphore(value: 0)
  private let crash: Mutex<CrashReport>

  /// `providerImage`: the file name of the provider's shared object, whose
  /// frames a crash report names.
  init(provider: String, providerImage: String = "") throws(Errno) {
    // A socket pair, because it can be made close-on-exec atomically.
    (readEnd, writeEnd) = try Syscalls.socketPair()
    prefix = Array("translation-host: provider '\(provider)': ".utf8)
    crash = Mutex(CrashReport(providerImage: providerImage))
  }

  /// What Swift's backtracer said in the lines forwarded so far, in one
  /// line; nil when the provider printed no crash report.
  var crashSummary: String? { crash.withLock { $0.summary } }

  /// Closes both ends when no runner was started.
  func abandon() {
    Syscalls.close(writeEnd)
    Syscalls.close(readEnd)
  }

  /// Starts forwarding on a thread of its own (a Dispatch worker may wait
  /// behind busy ones, and a crash report read late is missing from the
  /// host's message); returns at once.
  func start() {
    DetachedThread.start(name: "provider-output", stackBytes: 256 * 1024) { [self] in
      forward()
      done.signal()
    }
  }

  /// Waits up to `limit` for the runner's processes to close the pipe, so
  /// their last words are shown before the host reports on them.
  func wait(upTo limit: Duration) {
    _ = done.wait(timeout: .now() + .milliseconds(Int(limit.pollMilliseconds)))
  }

  private func forward() {
    defer { Syscalls.close(readEnd) }
    // What the host writes is counted, prefixes and escapes included: a
    // provider that writes empty lines or control characters must not make
    // the host write many times the limit.
    var budget = Self.limit
    var dropping = false
    var line: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      guard let count = try? Syscalls.read(readEnd, into: &chunk), count > 0 else { break }
      guard !dropping else { continue }
      for byte in chunk[0..<count] {
        if byte == UInt8(ascii: "\n") {
          let text = String(decoding: line, as: UTF8.self)
          crash.withLock { $0.read(text) }
          dropping = !emit(line, budget: &budget)
          line.removeAll(keepingCapacity: true)
        } else {
          line.append(byte)
          // A line this long cannot be shown whole: show what fits now.
          if line.count > Self.limit { dropping = !emit(line, budget: &budget) }
        }
        if dropping { break }
      }
    }
    if !dropping && !line.isEmpty { _ = emit(line, budget: &budget) }
  }

  private static let dropped = Array("… (more output dropped)\n".utf8)

  /// Writes one line, prefixed, its control characters escaped (but tabs),
  /// if it fits in `budget` with room left for the note that output was
  /// dropped; otherwise the part that fits and that note. Returns whether
  /// more lines may follow.
  private func emit(_ line: [UInt8], budget: inout Int) -> Bool {
    let text = String(decoding: line, as: UTF8.self).escapingControlCharacters(keeping: ["\t"])
    let reserve = prefix.count + Self.dropped.count
    var bytes = prefix + Array(text.utf8) + [UInt8(ascii: "\n")]
    let fits = bytes.count + reserve <= budget
    if !fits {
      var room = budget - reserve
      var shown = String.UnicodeScalarView()
      for scalar in text.unicodeScalars {
        room -= UTF8.width(scalar)
        guard room >= 0 else { break }
        shown.append(scalar)
      }
      bytes = prefix + Array(String(shown).utf8) + Self.dropped
    }
    budget -= bytes.count
    try? Syscalls.writeAll(.standardError, bytes)
    return fits
  }
}
