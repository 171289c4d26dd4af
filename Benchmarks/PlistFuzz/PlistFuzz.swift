import Core
import Foundation
import Glibc
import System

/// Seeded fuzzer for the manifest reader (`PropertyListValue.parse`): mutates
/// valid Info.plist and entitlements files in XML, binary and OpenStep form and
/// checks that every case ends, within a time bound, in a value within the
/// limits or a refusal, and never in a crash.
///
/// The cases run in a child process that announces each case before reading
/// it, so a crash or a hang kills only the child: the parent makes the case
/// again from (seed, index), saves it, reports it and starts a new child after
/// it. Usage:
///
///     plist-fuzz [--seed N] [--cases N] [--timeout-ms N] [--out FOLDER]
///     plist-fuzz --replay FILE
///
/// Exit status 0 when every case passed, 1 when any crashed, hung or was slow.
@main
enum PlistFuzz {
  struct Options {
    var seed: UInt64 = 1
    var cases = 100_000
    var timeoutMilliseconds = 1_000
    var out = ".build/plist-fuzz"
    var childRange: Range<Int>?
    var replay: String?
  }

  static func main() throws {
    let options = parse(Array(CommandLine.arguments.dropFirst()))
    if let file = options.replay { return replay(file) }
    if let range = options.childRange { return child(options, range: range) }
    exit(try parent(options) ? 0 : 1)
  }

  private static func parse(_ arguments: [String]) -> Options {
    var options = Options()
    var index = 0
    func value() -> String {
      index += 1
      guard index < arguments.count else { usage("\(arguments[index - 1]) needs a value") }
      return arguments[index]
    }
    while index < arguments.count {
      switch arguments[index] {
      case "--seed": options.seed = UInt64(number(value(), "--seed"))
      case "--cases": options.cases = number(value(), "--cases")
      case "--timeout-ms": options.timeoutMilliseconds = number(value(), "--timeout-ms")
      case "--out": options.out = value()
      case "--replay": options.replay = value()
      case "--child":
        guard let start = Int(value()), let end = Int(value()), start <= end else { usage("--child takes two case numbers") }
        options.childRange = start..<end
      default: usage("unknown argument '\(arguments[index])'")
      }
      index += 1
    }
    return options
  }

  private static func number(_ text: String, _ option: String) -> Int {
    guard let value = Int(text), value >= 0 else { usage("\(option) takes a whole number") }
    return value
  }

  private static func usage(_ problem: String) -> Never {
    var message = "Error: \(problem)\nUsage: plist-fuzz [--seed N] [--cases N] [--timeout-ms N] [--out FOLDER] | --replay FILE\n"
    message.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(64)
  }

  // MARK: Parent

  /// Runs all cases in children; returns whether all passed.
  private static func parent(_ options: Options) throws -> Bool {
    guard let executable = Syscalls.executablePath() else { fatalError("cannot find /proc/self/exe") }
    say(
      "plist-fuzz: seed \(options.seed), \(options.cases) cases, \(options.timeoutMilliseconds) ms per case; findings go to \(options.out)"
    )
    let started = Syscalls.monotonicNanoseconds()
    var findings = 0
    var next = 0
    var children = 0
    var summary = ""
    while next < options.cases {
      let (ours, theirs) = try Syscalls.socketPair()
      let null = FileDescriptor(rawValue: open("/dev/null", O_RDWR))
      let pid = try Syscalls.spawn(
        executable,
        arguments: [
          "--seed", String(options.seed), "--timeout-ms", String(options.timeoutMilliseconds), "--child", String(next),
          String(options.cases),
        ],
        environment: ["SWIFT_BACKTRACE=enable=no"],
        actions: [
          .duplicate(theirs, as: FileDescriptor(rawValue: 3)), .duplicate(null, as: .standardInput),
          .duplicate(null, as: .standardOutput), .duplicate(.standardError, as: .standardError),
        ],
        newSession: false)
      // (No backtrace in the child: it would stay silent long enough to look hung; --replay shows one.)
      Syscalls.close(theirs)
      Syscalls.close(null)
      children += 1
      var current = next
      var buffer: [UInt8] = []
      var outcome: String?
      reading: while true {
        // A case may take the time bound; a child silent for ten times that is hung.
        guard try Syscalls.waitReadable(ours, timeout: .milliseconds(options.timeoutMilliseconds * 10)) else {
          Syscalls.kill(pid, .kill)
          outcome = "hang"
          break
        }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = try Syscalls.read(ours, into: &chunk)
        if count == 0 { break }
        buffer += chunk[..<count]
        while let newline = buffer.firstIndex(of: 0x0A) {
          let line = String(decoding: buffer[..<newline], as: UTF8.self)
          buffer.removeSubrange(...newline)
          let fields = line.split(separator: " ")
          switch fields.first {
          case "case": current = Int(fields[1])!
          case "slow":
            findings += 1
            report("slow (\(fields[2]) ms)", index: Int(fields[1])!, options: options)
          case "done":
            summary = String(line.dropFirst(5))
            break reading
          default: break
          }
        }
      }
      Syscalls.close(ours)
      let status = try Syscalls.wait(pid)
      if outcome == nil && (status & 0x7F != 0 || (status >> 8) & 0xFF != 0) {
        outcome = status & 0x7F != 0 ? "crash (signal \(status & 0x7F))" : "crash (exit status \((status >> 8) & 0xFF))"
      }
      guard let outcome else { break }
      findings += 1
      report(outcome, index: current, options: options)
      next = current + 1
    }
    let seconds = Double(Syscalls.monotonicNanoseconds() - started) / 1e9
    say(
      "plist-fuzz: seed \(options.seed), \(options.cases) cases in \(String(format: "%.1f", seconds)) s, \(children) child process(es), \(findings) finding(s); last child: \(summary)"
    )
    if findings > 0 { say("plist-fuzz: the same cases again: plist-fuzz --seed \(options.seed) --cases \(options.cases)") }
    return findings == 0
  }

  /// Saves case `index` and says how to replay it.
  private static func report(_ outcome: String, index: Int, options: Options) {
    let (bytes, origin) = CaseGenerator.make(seed: options.seed, index: index)
    try? FileManager.default.createDirectory(atPath: options.out, withIntermediateDirectories: true)
    let file = "\(options.out)/seed\(options.seed)-case\(index).plist"
    _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
    say(
      "plist-fuzz: case \(index): \(outcome); \(bytes.count) bytes from \(origin); saved as \(file) (replay: plist-fuzz --replay \(file))"
    )
  }

  // MARK: Child

  /// Runs the cases of `range`, announcing each on descriptor 3 before it runs.
  private static func child(_ options: Options, range: Range<Int>) {
    var slowest = (index: -1, nanoseconds: UInt64(0), bytes: 0)
    var outcomes: [String: Int] = [:]
    for index in range {
      announce("case \(index)\n")
      let (bytes, _) = CaseGenerator.make(seed: options.seed, index: index)
      let start = Syscalls.monotonicNanoseconds()
      let outcome = run(bytes)
      let elapsed = Syscalls.monotonicNanoseconds() - start
      outcomes[outcome, default: 0] += 1
      if elapsed > slowest.nanoseconds { slowest = (index, elapsed, bytes.count) }
      if elapsed > UInt64(options.timeoutMilliseconds) * 1_000_000 { announce("slow \(index) \(elapsed / 1_000_000)\n") }
    }
    let counts = outcomes.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    announce(
      "done \(counts); slowest case \(slowest.index): \(String(format: "%.2f", Double(slowest.nanoseconds) / 1e6)) ms for \(slowest.bytes) bytes\n"
    )
  }

  /// Prints a line at once, unbuffered, so a report survives whatever happens next.
  private static func say(_ line: String) {
    var line = line + "\n"
    line.withUTF8 { text in
      var offset = 0
      while offset < text.count {
        let written = write(1, text.baseAddress! + offset, text.count - offset)
        guard written > 0 || errno == EINTR else { return }
        offset += Swift.max(written, 0)
      }
    }
  }

  private static func announce(_ line: String) {
    var line = line
    line.withUTF8 { try? Syscalls.writeAll(FileDescriptor(rawValue: 3), UnsafeRawBufferPointer($0)) }
  }

  /// Reads one case and checks the result; a broken invariant is a crash on purpose.
  private static func run(_ bytes: [UInt8]) -> String {
    do throws(PropertyListLimits.Violation) {
      let value = try PropertyListValue.parse(bytes)
      check(value)
      return "read"
    } catch {
      switch error {
      case .tooLarge: return "too large"
      case .tooDeep: return "too deep"
      case .tooManyObjects: return "too many objects"
      case .duplicateKey: return "duplicate key"
      case .malformed: return "malformed"
      }
    }
  }

  /// Walks a value without recursion: no deeper than the depth limit, no more values than the object limit.
  private static func check(_ value: PropertyListValue) {
    var pending: [(PropertyListValue, Int)] = [(value, 0)]
    var objects = 0
    while let (value, depth) = pending.popLast() {
      objects += 1
      precondition(objects <= PropertyListLimits.maximumObjects, "a value read holds more than maximumObjects values")
      switch value {
      case .array(let elements):
        precondition(depth < PropertyListLimits.maximumDepth, "a value read nests deeper than maximumDepth")
        pending += elements.map { ($0, depth + 1) }
      case .dictionary(let entries):
        precondition(depth < PropertyListLimits.maximumDepth, "a value read nests deeper than maximumDepth")
        pending += entries.values.map { ($0, depth + 1) }
      default: break
      }
    }
  }

  private static func replay(_ file: String) {
    guard let data = FileManager.default.contents(atPath: file) else { usage("cannot read \(file)") }
    let start = Syscalls.monotonicNanoseconds()
    let outcome = run(Array(data))
    say("\(file): \(outcome) in \(String(format: "%.2f", Double(Syscalls.monotonicNanoseconds() - start) / 1e6)) ms")
  }
}
