import CLD2Shim
import Core
import FoundationEssentials
import Glibc
import RunnerProtocol
import Service
import System

/// Host benchmark: runner start-up, host ↔ runner round trip, what the runner
/// and its sandbox add to a cold `translate`, and language detection, each
/// beside its baseline in the same run. Run by `make bench` after `make
/// build`; prints medians.
@main
enum HostBenchmark {
  static let build = CommandLine.arguments.dropFirst().first ?? "build"

  /// `host-benchmark <build> [service|service-latency [count]|throughput|latency [count]|runner|disk]`:
  /// everything, or the service figures only (or their latency table only),
  /// or the service's throughput with concurrent clients only, or its own
  /// cost per request only (a tight loop of Rot13), or the
  /// runner's footprint only, or the start cost of the container's view only.
  static func main() throws {
    let only = CommandLine.arguments.dropFirst(2).first
    if only == "service" { return try ServiceBenchmark.run(build: build) }
    if only == "throughput" { return try ServiceBenchmark.runThroughput(build: build) }
    if only == "availability-once" { return try BusBenchmark.availabilityOnce() }
    if only == "availability" { return try BusBenchmark.runFirstQuery(build: build) }
    if only == "dbus" {
      let count = CommandLine.arguments.dropFirst(3).first.flatMap { Int($0) } ?? 1_000
      return try BusBenchmark.run(build: build, count: count)
    }
    if only == "service-latency" {
      let count = CommandLine.arguments.dropFirst(3).first.flatMap { Int($0) } ?? 300
      return try ServiceBenchmark.run(build: build, sentenceCount: count, latencyOnly: true)
    }
    if only == "latency" {
      let count = CommandLine.arguments.dropFirst(3).first.flatMap { Int($0) } ?? 2_000
      return try ServiceBenchmark.runLatency(build: build, count: count)
    }
    let bundlePath = build + "/lib/translation-host/providers/Rot13.translationprovider"
    let runner = build + "/libexec/translation-host/translation-provider-runner"
    let bundle = try ProviderBundle.load(at: bundlePath)
    let denied = try SandboxPolicy.forBundle(bundle)
    var allowed = denied
    allowed.allowsNetwork = true

    print("Host benchmark, medians (\(ProcessInfo.processInfo.activeProcessorCount) cores; \(ProcessTree.loadAverage()))\n")
    print("| measure | translation-host | baseline | ratio |")
    print("|---|---:|---:|---:|")
    if only == "runner" { return try RunnerFootprint.run(build: build) }
    // The container's size-limited view (disk-budget) against the container bound as it is.
    var bound = denied
    bound.limits.diskMiB = 0
    if only == "disk" {
      let probe = try RunnerClient.launch(bundle: bundle, policy: denied, runnerPath: runner, timeout: .seconds(10))
      let inForce = probe.sandbox.contains(.diskBudget)
      probe.close()
      if !inForce { print("note: the view is not in force here (no /dev/fuse for this user): both ways bind the container") }
      var viewed: [Double] = []
      var plain: [Double] = []
      for _ in 0..<41 {
        viewed.append(
          median(runs: 1) {
            try RunnerClient.launch(bundle: bundle, policy: denied, runnerPath: runner, timeout: .seconds(10)).close()
          })
        plain.append(
          median(runs: 1) {
            try RunnerClient.launch(bundle: bundle, policy: bound, runnerPath: runner, timeout: .seconds(10)).close()
          })
      }
      let difference = zip(viewed, plain).map { $0 - $1 }.sorted()[viewed.count / 2]
      row(
        "runner start-up to ready, with the container's view", viewed.sorted()[20], "the container bound as is",
        plain.sorted()[20])
      print("median of the differences, start by start: \(format(difference))")
      return
    }

    let spawn = median(runs: 40) { try spawnAndWait("/bin/true", []) }
    let startDenied = median(runs: 40) {
      try RunnerClient.launch(bundle: bundle, policy: denied, runnerPath: runner, timeout: .seconds(10)).close()
    }
    let startAllowed = median(runs: 40) {
      try RunnerClient.launch(bundle: bundle, policy: allowed, runnerPath: runner, timeout: .seconds(10)).close()
    }
    row("runner start-up to ready, network denied (all layers)", startDenied, "spawn /bin/true", spawn)
    row("runner start-up to ready, network allowed", startAllowed, "spawn /bin/true", spawn)
    try RunnerFootprint.run(build: build)

    let client = try RunnerClient.launch(bundle: bundle, policy: denied, runnerPath: runner, timeout: .seconds(10))
    defer { client.close() }
    for _ in 0..<200 { try client.ping() }
    let roundTrip = median(runs: 5_000) { try client.ping() }
    let echo = try EchoPeer()
    defer { echo.close() }
    let raw = median(runs: 5_000) { try echo.roundTrip() }
    row("host ↔ runner round trip (a framed ping)", roundTrip, "1-byte echo through /bin/cat", raw)
    BenchSummary.record(
      .init(
        figure: "host ↔ runner round trip", value: format(roundTrip), baseline: format(raw) + " (echo through cat)",
        ratio: roundTrip / raw, goal: "≤ 50 µs", met: roundTrip <= 50e-6))
    let coding = median(runs: 5_000) {
      var request = WireWriter()
      RunnerRequest.ping.encode(to: &request)
      var reply = WireWriter()
      RunnerMessage.reply(.done).encode(to: &reply)
      var requestReader = WireReader(request.bytes)
      var replyReader = WireReader(reply.bytes)
      let decoded = (try RunnerRequest(from: &requestReader), try RunnerMessage(from: &replyReader))
      precondition(decoded == (.ping, .reply(.done)))
    }
    row("of which message coding (both messages, both ways)", coding, "1-byte echo through /bin/cat", raw)

    let translate = [
      build + "/bin/translation-host", "translate", "--provider", bundlePath, "--from", "en", "--to", "en-x-rot13", "Hello",
    ]
    let inProcess = median(runs: 20) { try spawnAndWait(translate[0], Array(translate.dropFirst()) + ["--in-process"]) }
    let sandboxed = median(runs: 20) { try spawnAndWait(translate[0], Array(translate.dropFirst())) }
    row("cold `translate`, sandboxed runner", sandboxed, "`translate --in-process`", inProcess)

    let texts = [
      "The weather is lovely today and we are going to the beach.", "Hoy hace buen tiempo y vamos a la playa.",
      "Il fait beau aujourd'hui et nous allons à la plage.", "Heute ist das Wetter schön und wir gehen an den Strand.",
    ]
    var index = 0
    let detect = median(runs: 4_000) {
      _ = LanguageDetector.detect(texts[index % texts.count])
      index += 1
    }
    var candidates = [cld2_candidate](repeating: cld2_candidate(), count: 3)
    var reliable = false
    let direct = median(runs: 4_000) {
      var text = texts[index % texts.count]
      index += 1
      _ = text.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) { cld2_detect($0.baseAddress, Int32($0.count), &candidates, &reliable) }
      }
    }
    row("language detection per string (LanguageDetector)", detect, "cld2_detect called directly", direct)
    let listMemory = try peakMemory(build + "/bin/translation-host", ["list"])
    let translateMemory = try peakMemory(translate[0], Array(translate.dropFirst()))
    let trueMemory = try peakMemory("/bin/true", [])
    print("| host peak memory, `list` vs /bin/true | \(listMemory / 1024) MiB | \(trueMemory) KiB | |")
    print("| host peak memory, `translate` (the runner is another process) | \(translateMemory / 1024) MiB | | |")
    BenchSummary.record(
      .init(
        figure: "host peak memory, `translate`", value: "\(translateMemory / 1024) MiB",
        baseline: "\(trueMemory) KiB (/bin/true)",
        ratio: nil, goal: "≤ 30 MB", met: Double(translateMemory) * 1024 <= 30e6))
    print("\nGoals (DESIGN §9): round trip ≤ 50 µs median; host peak memory ≤ 30 MB.")

    try ServiceBenchmark.run(build: build)
  }

  /// A table row; the ratio is value / baseline, or with `faster` how many times faster the value is.
  static func row(_ name: String, _ value: Double, _ baseline: String, _ baselineValue: Double, faster: Bool = false) {
    let ratio = faster ? "\(String(format2: baselineValue / value))× faster" : "\(String(format2: value / baselineValue))×"
    print("| \(name) vs \(baseline) | \(format(value)) | \(format(baselineValue)) | \(ratio) |")
  }

  static func format(_ seconds: Double) -> String {
    seconds < 1e-3 ? "\(String(format2: seconds * 1e6)) µs" : "\(String(format2: seconds * 1e3)) ms"
  }

  /// The median wall time of `runs` calls of `body`, in seconds.
  static func median(runs: Int, _ body: () throws -> Void) -> Double {
    var samples: [Double] = []
    samples.reserveCapacity(runs)
    for _ in 0..<runs {
      let start = Syscalls.monotonicNanoseconds()
      do { try body() } catch { fatalError("benchmark step failed: \(error)") }
      samples.append(Double(Syscalls.monotonicNanoseconds() - start) / 1e9)
    }
    samples.sort()
    return samples[samples.count / 2]
  }

  /// The median wall time of `runs` runs of a program with `environment`.
  static func medianOfProcess(runs: Int, _ path: String, _ arguments: [String], _ environment: [String: String]) throws -> Double
  {
    let variables = environment.map { "\($0.key)=\($0.value)" }
    return median(runs: runs) { try spawnAndWait(path, arguments, environment: variables) }
  }

  static func spawnAndWait(_ path: String, _ arguments: [String], environment: [String] = environment) throws {
    let (a, b) = try Syscalls.socketPair()
    defer { Syscalls.close(a) }
    let null = open("/dev/null", O_WRONLY)
    defer { close(null) }
    let pid = try Syscalls.spawn(
      path, arguments: arguments, environment: environment,
      actions: RunnerProcess.descriptors(protocol: b, output: FileDescriptor(rawValue: null)),
      newSession: true)
    Syscalls.close(b)
    _ = try Syscalls.wait(pid)
  }

  static let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }

  /// The peak resident memory of one run of a program, in KiB, as GNU time
  /// reports it. (Our own `wait4` would not do: `posix_spawn` starts the child
  /// in this process's memory, whose peak its `ru_maxrss` then includes.)
  static func peakMemory(_ path: String, _ arguments: [String]) throws -> Int {
    let folder = FileManager.default.temporaryDirectory.path
    let report = folder + "/host-benchmark-memory-\(getpid())"
    defer { unlink(report) }
    let pid = try Syscalls.spawn(
      "/usr/bin/time", arguments: ["-f", "%M", "-o", report, path] + arguments, environment: environment,
      actions: [.nullDevice(as: .standardInput), .nullDevice(as: .standardOutput), .nullDevice(as: .standardError)],
      newSession: false)
    _ = try Syscalls.wait(pid)
    let text = (FileManager.default.contents(atPath: report)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    return Int(text.split(separator: "\n").last ?? "") ?? -1
  }
}

/// `/bin/cat` on a socket: the floor of a round trip to another process.
/// With `relays`, a chain of cats joined by pipes: the byte wakes each in
/// turn, then this process, as a request through a relay wakes the relay,
/// the process behind it, the relay again and its sender.
final class EchoPeer {
  private let fd: Int32
  let pid: pid_t

  init(relays: Int = 0) throws {
    let (a, b) = try Syscalls.socketPair()
    fd = a.rawValue
    // cat reads descriptor 3 (the socket) and writes to its stdout, the same socket.
    let command =
      relays == 0 ? "exec cat <&3" : (["cat <&3"] + Array(repeating: "cat", count: 2 * relays)).joined(separator: " | ")
    pid = try Syscalls.spawn(
      "/bin/sh", arguments: ["-c", command], environment: [], actions: RunnerProcess.descriptors(protocol: b, output: b),
      newSession: false)
    Syscalls.close(b)
  }

  func roundTrip() throws {
    var byte: UInt8 = 0x2A
    guard send(fd, &byte, 1, Int32(MSG_NOSIGNAL)) == 1, recv(fd, &byte, 1, 0) == 1 else { throw Errno.current }
  }

  func close() {
    shutdown(fd, Int32(SHUT_RDWR))
    Syscalls.close(FileDescriptor(rawValue: fd))
    _ = try? Syscalls.wait(pid)
  }
}

extension String {
  /// `value` with two decimals.
  init(format2 value: Double) {
    let hundredths = (value * 100).rounded()
    let whole = Int(hundredths / 100)
    let fraction = Int(abs(hundredths).truncatingRemainder(dividingBy: 100))
    self = "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
  }
}
