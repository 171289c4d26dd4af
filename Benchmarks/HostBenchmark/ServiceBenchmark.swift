import ApertiumSupport
import Core
import Foundation
import RunnerProtocol
import Service
import System

/// The resident service through Core's `ServiceClient` (the path the CLI and
/// the `Translation` library take), beside its baselines in the same run:
/// - warm latency per sentence, client → service → Apertium, against the
///   same sentence through Apertium-APY over HTTP, and against the layers
///   below it: the Apertium provider in a runner without the service, and the
///   warm pipeline alone (`ApertiumEngine` in this process). Interleaved
///   sentence by sentence, so load on the machine falls on all alike;
/// - throughput of 8 concurrent clients against the warm pipeline alone;
/// - the service's memory with three providers warm.
enum ServiceBenchmark {
  static func run(build: String, sentenceCount: Int = 300) throws {
    let fixture = try ServiceFixture(build: build)
    defer { fixture.stop() }
    let (client, http) = try fixture.waitUntilReady()
    let texts = sentences(sentenceCount)

    let bundle = try ProviderBundle.load(at: build + "/lib/translation-host/providers/Apertium.translationprovider")
    let runner = try RunnerClient.launch(
      bundle: bundle, policy: try SandboxPolicy.forBundle(bundle),
      runnerPath: build + "/libexec/translation-host/translation-provider-runner", timeout: .seconds(30))
    defer { runner.close() }
    let engine = ApertiumEngine()
    let rot13Path = build + "/lib/translation-host/providers/Rot13.translationprovider"
    let rot13Bundle = try ProviderBundle.load(at: rot13Path)
    let rot13 = try RunnerClient.launch(
      bundle: rot13Bundle, policy: try SandboxPolicy.forBundle(rot13Bundle),
      runnerPath: build + "/libexec/translation-host/translation-provider-runner", timeout: .seconds(30))
    defer { rot13.close() }

    let paths: [(String, (String) throws -> Void)] = [
      ("service", { _ = try client.translate([$0], from: "en", to: "es", provider: "Apertium") }),
      ("apy", { _ = try http.get("/translate?langpair=eng%7Cspa&q=" + LoopbackHTTP.escaped($0)) }),
      ("runner", { _ = try runner.translate([$0], from: "en", to: "es") }),
      ("pipeline", { _ = try engine.translate([$0], from: "en", to: "es") }),
      ("service-rot13", { _ = try client.translate([$0], from: "en", to: "en-x-rot13", provider: rot13Path) }),
      ("runner-rot13", { _ = try rot13.translate([$0], from: "en", to: "en-x-rot13") }),
    ]
    for text in texts.prefix(20) { for (_, path) in paths { try path(text) } }
    var samples = [String: [Double]]()
    for text in texts {
      for (name, path) in paths {
        let start = Syscalls.monotonicNanoseconds()
        try path(text)
        samples[name, default: []].append(Double(Syscalls.monotonicNanoseconds() - start) / 1e9)
      }
    }
    let latency = samples.mapValues(median)
    let direct = try HostBenchmark.medianOfProcess(
      runs: 5, build + "/bin/translation-host",
      ["translate", "--no-service", "--provider", "Apertium", "--from", "en", "--to", "es", texts[0]], fixture.environment)

    print("\nService benchmark, medians (\(texts.count) sentences, interleaved; \(ProcessTree.loadAverage()))\n")
    print("| measure | translation-host serve | baseline | ratio |")
    print("|---|---:|---:|---:|")
    let service = latency["service"]!
    HostBenchmark.row(
      "warm latency per sentence, client → service → Apertium", service, "Apertium-APY over HTTP (keep-alive)", latency["apy"]!,
      faster: true)
    HostBenchmark.row("the same", service, "the Apertium provider in a runner, no service", latency["runner"]!)
    HostBenchmark.row("the same", service, "the warm pipeline alone (`ApertiumEngine`)", latency["pipeline"]!)
    HostBenchmark.row("the same", service, "a cold `translate --no-service` (the direct path)", direct, faster: true)
    HostBenchmark.row(
      "warm latency per sentence, client → service → Rot13 (the service's own cost)", latency["service-rot13"]!,
      "Rot13 in a runner, no service", latency["runner-rot13"]!)

    try throughput(client: fixture.location, engine: engine, count: sentenceCount * 8)

    // Three providers warm: ApertiumAPY and Reverse join the Apertium runners.
    _ = try client.translate(["The cat is on the table."], from: "en", to: "es", provider: "ApertiumAPY")
    _ = try client.openSceneSession(provider: "Reverse", timeout: .seconds(30), notice: { _ in })
    usleep(500_000)
    let memory = ServiceFixture.residentKiB(of: fixture.servicePID)
    print(
      "| memory with Apertium, ApertiumAPY and Reverse warm: the service (RSS) and its runners (RSS, all processes) | "
        + "\(String(format2: Double(memory.own) / 1024)) MiB | \(String(format2: Double(memory.descendants) / 1024)) MiB | |")
    print("\nGoals (issue 7, DESIGN §9): warm latency ≤ 2.5 ms median and ≥ 4× faster than Apertium-APY.")
  }

  /// 8 clients, each on its own thread and connection, one request per
  /// sentence, against `engine` translating the same sentences as one batch
  /// (its best: pipelined, split over two pipelines). Medians of 3 runs.
  private static func throughput(client location: ServiceLocation, engine: ApertiumEngine, count: Int) throws {
    let bulk = sentences(count)
    let words = Double(bulk.reduce(0) { $0 + $1.split(separator: " ").count })
    let clients = try (0..<8).map { _ in try ServiceClient.connect(to: location) }
    for client in clients { _ = try client.translate(["Warm up."], from: "en", to: "es", provider: "Apertium") }
    let failures = Failures()
    var rates: [Double] = []
    for _ in 0..<3 {
      let group = DispatchGroup()
      let start = Syscalls.monotonicNanoseconds()
      for (index, client) in clients.enumerated() {
        group.enter()
        let share = Array(bulk[index...].enumerated().filter { $0.offset % 8 == 0 }.map(\.element))
        let client = client  // one thread per client
        Thread {
          do { for text in share { _ = try client.translate([text], from: "en", to: "es", provider: "Apertium") } } catch {
            failures.record(error)
          }
          group.leave()
        }.start()
      }
      group.wait()
      if let error = failures.first { throw error }
      rates.append(words / (Double(Syscalls.monotonicNanoseconds() - start) / 1e9))
    }
    var batch: [Double] = []
    for _ in 0..<3 {
      let start = Syscalls.monotonicNanoseconds()
      _ = try engine.translate(bulk, from: "en", to: "es")
      batch.append(words / (Double(Syscalls.monotonicNanoseconds() - start) / 1e9))
    }
    let (concurrent, pipeline) = (median(rates), median(batch))
    print(
      "| throughput, 8 concurrent clients, one request per sentence (\(bulk.count) sentences) vs the warm pipeline alone, "
        + "the same sentences as one batch | \(Int(concurrent)) words/s | \(Int(pipeline)) words/s | \(String(format2: concurrent / pipeline))× |"
    )
  }

  /// The generated sentences of `Benchmarks/translate.py`, in the same order.
  static func sentences(_ count: Int) -> [String] {
    let subjects = ["The cat", "My friend", "The old teacher", "A small dog", "Our neighbours", "The children"]
    let verbs = ["reads", "buys", "sees", "likes", "finds", "wants"]
    let objects = ["a book", "the red car", "three apples", "the new house", "a good film", "the letter"]
    let places = ["at home", "in the park", "every morning", "near the station", "after school", "on Sunday"]
    return (0..<count).map { "\(subjects[$0 % 6]) \(verbs[($0 / 6) % 6]) \(objects[($0 / 36) % 6]) \(places[($0 / 216) % 6])." }
  }

  static func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }

  /// The first error of the client threads.
  private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [any Error] = []
    func record(_ error: any Error) { lock.withLock { errors.append(error) } }
    var first: (any Error)? { lock.withLock { errors.first } }
  }
}
