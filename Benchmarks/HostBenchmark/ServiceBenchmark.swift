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
/// - the same for Rot13 (the service's own cost), beside the floor of any
///   relay (a byte through three cats against one);
/// - throughput of 8 concurrent clients against the warm pipeline alone,
///   and against the best batching can give them (`throughput`);
/// - the service's memory with three providers warm.
enum ServiceBenchmark {
  /// `latencyOnly`: the latency table alone (`host-benchmark <build>
  /// service-latency [count]`), without the throughput runs and the memory.
  static func run(build: String, sentenceCount: Int = 300, latencyOnly: Bool = false) throws {
    let fixture = try ServiceFixture(build: build)
    defer { fixture.stop() }
    let (client, http) = try fixture.waitUntilReady()
    let texts = sentences(sentenceCount)

    let runner = try launchRunner(build + "/lib/translation-host/providers/Apertium.translationprovider", build: build)
    defer { runner.close() }
    let engine = Self.engine(build: build)
    // The same pipeline with fewer of the stage libraries: what each does to a warm sentence.
    let bundleFolder = build + "/lib/translation-host/providers/Apertium.translationprovider"
    let scanOnly = ApertiumEngine(stagePreload: ApertiumStagePreload(bundle: bundleFolder, libraryFolders: []))
    let plain = ApertiumEngine(stagePreload: .none)
    let ownCost = try OwnCostPaths(client: client, build: build)
    defer { ownCost.close() }
    let paths: [(String, (String) throws -> Void)] =
      [
        ("service", { _ = try client.translate([$0], from: "en", to: "es", provider: "Apertium") }),
        ("apy", { _ = try http.get("/translate?langpair=eng%7Cspa&q=" + LoopbackHTTP.escaped($0)) }),
        ("runner", { _ = try runner.translate([$0], from: "en", to: "es") }),
        ("pipeline", { _ = try engine.translate([$0], from: "en", to: "es") }),
        ("pipeline-scan", { _ = try scanOnly.translate([$0], from: "en", to: "es") }),
        ("pipeline-plain", { _ = try plain.translate([$0], from: "en", to: "es") }),
      ] + ownCost.paths
    // Warm-up on other sentences: the measured ones must be new to every engine.
    let (latency, cpu) = try interleavedLatency(
      paths, texts: texts, warmUp: sentences(20, from: 99_000),
      cpu: (ownCost.cpuProbes(service: fixture.servicePID), sentences(texts.count, from: 50_000)))
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
    BenchSummary.record(
      .init(
        figure: "warm sentence through the service (Apertium)", value: HostBenchmark.format(service),
        baseline: HostBenchmark.format(latency["apy"]!) + " (Apertium-APY)", ratio: latency["apy"]! / service,
        goal: "≤ 2.5 ms, ≥ 4× faster than APY", met: service <= 2.5e-3 && latency["apy"]! / service >= 4,
        bound: "the warm pipeline alone takes \(HostBenchmark.format(latency["pipeline"]!))"))
    HostBenchmark.row("the same", service, "the warm pipeline alone (`ApertiumEngine`)", latency["pipeline"]!)
    HostBenchmark.row("the same", service, "a cold `translate --no-service` (the direct path)", direct, faster: true)
    HostBenchmark.row(
      "the warm pipeline alone, its stages loading the integer scan and mimalloc", latency["pipeline"]!,
      "the integer scan only", latency["pipeline-scan"]!)
    HostBenchmark.row(
      "the same", latency["pipeline"]!, "neither (the stages as Debian ships them)", latency["pipeline-plain"]!)
    OwnCostPaths.rows(latency, cpu: cpu)
    guard !latencyOnly else { return }

    try throughput(
      client: fixture.location, engine: engine, count: sentenceCount * 8,
      processes: .init(service: fixture.servicePID, apy: fixture.apyPID))

    // Three providers warm: ApertiumAPY and Reverse join the Apertium runners.
    // A new connection: the first has been idle longer than the service keeps one open.
    let late = try ServiceClient.connect(to: fixture.location)
    _ = try late.translate(["The cat is on the table."], from: "en", to: "es", provider: "ApertiumAPY")
    _ = try late.openSceneSession(provider: "Reverse", timeout: .seconds(30), notice: { _ in })
    usleep(500_000)
    let memory = ServiceFixture.residentKiB(of: fixture.servicePID)
    print(
      "| memory with Apertium, ApertiumAPY and Reverse warm: the service (RSS) and its runners (RSS, all processes) | "
        + "\(String(format2: Double(memory.own) / 1024)) MiB | \(String(format2: Double(memory.descendants) / 1024)) MiB | |")
    print("\nGoals (issue 7, DESIGN §9): warm latency ≤ 2.5 ms median and ≥ 4× faster than Apertium-APY.")
  }

  /// The service's own cost alone (`host-benchmark <build> latency [count]`:
  /// quicker, for work on the service's request path): client → service →
  /// Rot13 against Rot13 in a runner, and the relay floor, interleaved.
  static func runLatency(build: String, count: Int = 2_000) throws {
    let fixture = try ServiceFixture(build: build)
    defer { fixture.stop() }
    let (client, _) = try fixture.waitUntilReady()
    let ownCost = try OwnCostPaths(client: client, build: build)
    defer { ownCost.close() }
    let (latency, cpu) = try interleavedLatency(
      ownCost.paths, texts: sentences(count), warmUp: sentences(100, from: 99_000),
      cpu: (ownCost.cpuProbes(service: fixture.servicePID), sentences(count, from: 50_000)))
    print("\nService latency, medians (\(count) sentences, interleaved; \(ProcessTree.loadAverage()))\n")
    print("| measure | translation-host serve | baseline | ratio |")
    print("|---|---:|---:|---:|")
    OwnCostPaths.rows(latency, cpu: cpu)
  }

  /// A runner of the bundle at `path`, sandboxed as the service runs it.
  static func launchRunner(_ path: String, build: String) throws -> RunnerClient {
    let bundle = try ProviderBundle.load(at: path)
    return try RunnerClient.launch(
      bundle: bundle, policy: try SandboxPolicy.forBundle(bundle),
      runnerPath: build + "/libexec/translation-host/translation-provider-runner", timeout: .seconds(30))
  }

  /// The median time of each path per text, the paths taken in turn text
  /// by text (so that load falls on all alike), each round beginning with
  /// another, after each took `warmUp`. Then, for the paths `cpu` has a
  /// probe for, the median CPU time of the processes it reads, in seconds:
  /// in a second pass over `cpuTexts` taken the same way, as reading `/proc`
  /// around a timed text would be timed with it (and leave it colder).
  private static func interleavedLatency(
    _ paths: [(String, (String) throws -> Void)], texts: [String], warmUp: [String],
    cpu: (probes: [String: () -> UInt64], texts: [String]) = ([:], [])
  ) throws -> (latency: [String: Double], cpu: [String: Double]) {
    for text in warmUp { for (_, path) in paths { try path(text) } }
    var samples = [String: [Double]]()
    var used = [String: [Double]]()
    for (pass, texts) in [texts, cpu.texts].enumerated() {
      for (index, text) in texts.enumerated() {
        // Each text begins its round with the next path: no path always comes
        // first after the others' work (the Apertium paths' pipelines leave
        // both cores' caches to the path after them, and their stages settling).
        for (name, path) in paths[(index % paths.count)...] + paths[..<(index % paths.count)] {
          guard pass == 1, let probe = cpu.probes[name] else {
            let start = Syscalls.monotonicNanoseconds()
            try path(text)
            if pass == 0 { samples[name, default: []].append(Double(Syscalls.monotonicNanoseconds() - start) / 1e9) }
            continue
          }
          let before = probe()
          try path(text)
          used[name, default: []].append(Double(probe() &- before) / 1e9)
        }
      }
    }
    return (samples.mapValues(median), used.mapValues(median))
  }

  /// The throughput figure alone, with its own service (`host-benchmark
  /// <build> throughput`: quicker, for work on the service's batching).
  static func runThroughput(build: String, sentenceCount: Int = 300) throws {
    let fixture = try ServiceFixture(build: build)
    defer { fixture.stop() }
    _ = try fixture.waitUntilReady()
    print("\nService throughput, medians of 5 (\(ProcessTree.loadAverage()))\n")
    print("| measure | translation-host serve | baseline | ratio |")
    print("|---|---:|---:|---:|")
    try throughput(
      client: fixture.location, engine: engine(build: build), count: sentenceCount * 8,
      processes: .init(service: fixture.servicePID, apy: fixture.apyPID))
  }

  /// 8 clients, each on its own thread and connection, one request per
  /// sentence, against `engine` translating the same sentences as one batch
  /// (its best: pipelined, split over two pipelines). Runs alternate, one
  /// of each in turn, after one untimed round of each (every runner and
  /// pipeline started); medians of `runs`.
  private static func throughput(
    client location: ServiceLocation, engine: ApertiumEngine, count: Int, processes: CPUAccount.Processes, runs: Int = 5
  ) throws {
    // Each run of each path takes sentences no engine has seen (they remember
    // what they translated); all runs have the same shape of sentence.
    var next = 0
    func fresh() -> [String] {
      defer { next += count }
      return sentences(count, from: next)
    }
    /// Each run counts the words it translated: the generator's later words
    /// change length every 1,000 and 10,000 sentences, so runs differ by up to
    /// a tenth (one count for all runs, as before, put the bound 0–11% low).
    func words(_ texts: [String]) -> Double { Double(texts.reduce(0) { $0 + $1.split(separator: " ").count }) }
    /// A round's sentences, dealt out to its `paths` in turn, so that the
    /// paths compared in a round translate sentences of the same shape.
    func dealt(_ paths: Int) -> [[String]] {
      defer { next += count * paths }
      let pool = sentences(count * paths, from: next)
      return (0..<paths).map { path in stride(from: path, to: pool.count, by: paths).map { pool[$0] } }
    }
    let clients = try (0..<8).map { _ in try ServiceClient.connect(to: location) }
    let failures = Failures()
    /// The clients' words per second, each sending its share of `texts` one sentence at a time.
    func concurrent(_ texts: [String]) throws -> Double {
      let group = DispatchGroup()
      let start = Syscalls.monotonicNanoseconds()
      for (index, client) in clients.enumerated() {
        group.enter()
        let share = Array(texts[index...].enumerated().filter { $0.offset % 8 == 0 }.map(\.element))
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
      let seconds = Double(Syscalls.monotonicNanoseconds() - start) / 1e9
      return words(texts) / seconds
    }
    func batch(_ bulk: [String]) throws -> Double {
      let start = Syscalls.monotonicNanoseconds()
      _ = try engine.translate(bulk, from: "en", to: "es")
      return words(bulk) / (Double(Syscalls.monotonicNanoseconds() - start) / 1e9)
    }
    /// The best 8 clients with one sentence each can give the engines: two
    /// engines (a provider's two runners) on two threads, each translating
    /// batches of `size` in turn, the sentences shared out as the clients share them.
    let engines = [engine, ApertiumEngine(stagePreload: engine.stagePreload)]
    func batches(of size: Int, engines count: Int, _ bulk: [String]) throws -> Double {
      let group = DispatchGroup()
      let start = Syscalls.monotonicNanoseconds()
      for index in 0..<count {
        group.enter()
        let engine = engines[index]
        let mine = stride(from: index * size, to: bulk.count, by: size * count).map {
          Array(bulk[$0..<min($0 + size, bulk.count)])
        }
        Thread {
          do { for part in mine { _ = try engine.translate(part, from: "en", to: "es") } } catch { failures.record(error) }
          group.leave()
        }.start()
      }
      group.wait()
      if let error = failures.first { throw error }
      return words(bulk) / (Double(Syscalls.monotonicNanoseconds() - start) / 1e9)
    }
    /// The coalescing goal's bound (`feeding.py`'s, in this run): two warm
    /// pipelines fed as the 8 clients can feed them, 4 clients each, each
    /// sentence its own null flush, a client's next sentence written as soon
    /// as its answer is back; nothing of translation-host in between.
    guard let pair = engine.pair(from: "en", to: "es") else {
      throw BusBenchmark.Failure(description: "Apertium's eng-spa is not installed")
    }
    let fed = try (0..<2).map { _ in try ApertiumPipeline(pair: pair, stagePreload: engine.stagePreload) }
    // Never readable: the pipeline asks for the clients' next sentences at every turn.
    let (quiet, quietPeer) = try Syscalls.socketPair()
    defer {
      Syscalls.close(quiet)
      Syscalls.close(quietPeer)
    }
    func fedAsClients(_ bulk: [String]) throws -> Double {
      let group = DispatchGroup()
      let start = Syscalls.monotonicNanoseconds()
      for (index, pipeline) in fed.enumerated() {
        group.enter()
        // Clients 4·index … 4·index+3, each with every 8th sentence.
        let clients = (0..<4).map { client in stride(from: index * 4 + client, to: bulk.count, by: 8).map { bulk[$0] } }
        Thread {
          var sent = [Int](repeating: 0, count: clients.count)
          var ready = Array(clients.indices.filter { !clients[$0].isEmpty })
          do {
            try pipeline.stream(
              window: 8, wake: { quiet.rawValue },
              next: {
                guard !ready.isEmpty else { return nil }
                let client = ready.removeFirst()
                defer { sent[client] += 1 }
                return (client, clients[client][sent[client]])
              },
              deliver: { client, _ in if sent[client] < clients[client].count { ready.append(client) } })
          } catch {
            failures.record(error)
          }
          group.leave()
        }.start()
      }
      group.wait()
      if let error = failures.first { throw error }
      return words(bulk) / (Double(Syscalls.monotonicNanoseconds() - start) / 1e9)
    }
    _ = try concurrent(Array(fresh().prefix(160)))
    _ = try batches(of: 32, engines: 2, fresh())
    _ = try fedAsClients(fresh())
    var (rates, bounds, batched, eights, fours): ([Double], [Double], [Double], [Double], [Double]) = ([], [], [], [], [])
    var (clientsCPU, boundCPU) = (CPUAccount(), CPUAccount())
    for _ in 0..<runs {
      let texts = dealt(5)
      rates.append(try clientsCPU.measure(processes, sentences: texts[0].count) { try concurrent(texts[0]) })
      bounds.append(try boundCPU.measure(processes, sentences: texts[1].count) { try fedAsClients(texts[1]) })
      batched.append(try batch(texts[2]))
      eights.append(try batches(of: 8, engines: 1, texts[3]))
      fours.append(try batches(of: 4, engines: 2, texts[4]))
    }
    let (service, pipeline) = (median(rates), median(batched))
    print(
      "| throughput, 8 concurrent clients, one request per sentence (\(count) sentences) vs the warm pipeline alone, "
        + "the same sentences as one batch | \(Int(service)) words/s | \(Int(pipeline)) words/s | \(String(format2: service / pipeline))× |"
    )
    let bound = median(bounds)
    print(
      "| the same vs the engine fed as the 8 clients can feed it (feeding.py's bound: 2 pipelines, 4 clients each) "
        + "| \(Int(service)) words/s | \(Int(bound)) words/s | \(String(format2: service / bound))× |")
    print(
      "| each run, in turn: 8 clients / the bound | \(rates.map { String(Int($0)) }.joined(separator: ", ")) | "
        + "\(bounds.map { String(Int($0)) }.joined(separator: ", ")) | "
        + "\(zip(rates, bounds).map { String(format2: $0 / $1) }.joined(separator: ", ")) |")
    // What coalescing can reach at best: the engine never sees more than the 8 clients' sentences at once.
    for (name, rates) in [
      ("one engine, batches of 8 in turn", eights), ("two engines (as two runners), batches of 4 each in turn", fours),
    ] {
      print(
        "| the same vs the pipeline alone, \(name) | \(Int(service)) words/s | \(Int(median(rates))) words/s | "
          + "\(String(format2: service / median(rates)))× |")
    }
    BenchSummary.record(
      .init(
        figure: "8 one-sentence clients through the service vs the engine fed the same way (in this run)",
        value: "\(Int(service)) words/s", baseline: "\(Int(bound)) words/s (feeding.py's way)", ratio: service / bound,
        goal: "≥ 0.9×", met: service / bound >= 0.9,
        bound: "the service's coalescing and request path; see Benchmarks/README.md", number: service))
    BenchSummary.record(
      .init(
        figure: "the same vs feeding.py's bound (its own run)", value: "\(Int(service)) words/s",
        baseline: "feeding.py's bound", ratio: nil, goal: "(the goal is measured in one run, above)", met: nil,
        baselineKey: "feeding-bound", number: service))
    print(
      "| each run, in turn: 8 clients / one batch | \(rates.map { String(Int($0)) }.joined(separator: ", ")) | "
        + "\(batched.map { String(Int($0)) }.joined(separator: ", ")) | "
        + "\(zip(rates, batched).map { String(format2: $0 / $1) }.joined(separator: ", ")) |")
    cpuRows(clients: clientsCPU, bound: boundCPU)
  }

  /// Where a sentence's CPU goes, the 8 clients through the service against
  /// the bound, all runs: the bound's CPU per sentence over the clients' is
  /// what their ratio can reach with both cores busy.
  private static func cpuRows(clients: CPUAccount, bound: CPUAccount) {
    print("\nCPU per sentence (user and system, all runs; 8 clients through the service | the bound):\n")
    print("| part | 8 clients | the bound |")
    print("|---|---:|---:|")
    for part in CPUAccount.parts {
      print("| \(part) | \(Int(clients.perSentence(part))) µs | \(Int(bound.perSentence(part))) µs |")
    }
    let (path, floor) = (clients.perSentence(), bound.perSentence())
    print("| all | \(Int(path)) µs | \(Int(floor)) µs |")
    print(
      "| the bound's CPU per sentence over the clients' (the ratio at best, both cores busy) | | "
        + "\(String(format2: floor / path))× |")
  }

  /// `count` generated sentences from the `start`th on, all different up to
  /// the 100,000th (10 subjects × 10 verbs × 10 objects × 10 places × 10
  /// times, everyday words that Apertium's eng-spa knows), the same as
  /// `Benchmarks/translate.py`'s. The Apertium engine translates a text it
  /// has seen once (its translation memory): each measured run takes
  /// sentences no engine has seen.
  static func sentences(_ count: Int, from start: Int = 0) -> [String] {
    let subjects = [
      "The cat", "My friend", "The old teacher", "A small dog", "Our neighbours", "The children", "His brother",
      "The young doctor", "My mother", "The farmer",
    ]
    let verbs = ["reads", "buys", "sees", "likes", "finds", "wants", "sells", "paints", "opens", "brings"]
    let objects = [
      "a book", "the red car", "three apples", "the new house", "a good film", "the letter", "a big table",
      "the white bread", "two chairs", "the blue door",
    ]
    let places = [
      "at home", "in the park", "every morning", "near the river", "after school", "on Sunday", "in the garden",
      "before dinner", "at night", "in the city",
    ]
    let times = ["today", "again", "now", "later", "this week", "every day", "last year", "tomorrow", "at once", "too"]
    return (start..<start + count).map {
      "\(subjects[$0 % 10]) \(verbs[($0 / 10) % 10]) \(objects[($0 / 100) % 10]) \(places[($0 / 1000) % 10]) "
        + "\(times[($0 / 10000) % 10])."
    }
  }

  /// The warm pipeline alone, as the Apertium provider runs it (its stages load the same libraries).
  static func engine(build: String) -> ApertiumEngine {
    ApertiumEngine(
      stagePreload: ApertiumStagePreload(bundle: build + "/lib/translation-host/providers/Apertium.translationprovider"))
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
