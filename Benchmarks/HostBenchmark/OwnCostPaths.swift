import Core
import Glibc
import Service

/// The paths that show the service's own cost: Rot13 through the service
/// and in a runner, and the floor of any relay, whatever it does: one
/// process more on the way there and back (client → service → runner →
/// service → client wakes four processes in turn; client → runner →
/// client, two), as a byte through three cats against one.
struct OwnCostPaths {
  let paths: [(String, (String) throws -> Void)]
  private let rot13: RunnerClient
  private let echo: EchoPeer
  private let relay: EchoPeer

  init(client: ServiceClient, build: String) throws {
    let rot13Path = build + "/lib/translation-host/providers/Rot13.translationprovider"
    let rot13 = try ServiceBenchmark.launchRunner(rot13Path, build: build)
    let (echo, relay) = (try EchoPeer(), try EchoPeer(relays: 1))
    (self.rot13, self.echo, self.relay) = (rot13, echo, relay)
    paths = [
      ("service-rot13", { _ = try client.translate([$0], from: "en", to: "en-x-rot13", provider: rot13Path) }),
      ("runner-rot13", { _ = try rot13.translate([$0], from: "en", to: "en-x-rot13") }),
      ("relay", { _ in try relay.roundTrip() }),
      ("echo", { _ in try echo.roundTrip() }),
    ]
  }

  /// What each path's processes have run so far, in nanoseconds, read
  /// around each text (`ServiceBenchmark.interleavedLatency`): the service's
  /// threads (its runner is a process of its own), and the cats of the relay
  /// and of the echo.
  func cpuProbes(service: pid_t) -> [String: () -> UInt64] {
    let (relayShell, echoCat) = (relay.pid, echo.pid)
    return [
      "service-rot13": { ProcessTree.runNanoseconds(of: service) },
      // Its cats looked up each time: the shell may not have started them all when the probes are made.
      "relay": { ([relayShell] + ProcessTree.descendants(of: relayShell)).reduce(0) { $0 + ProcessTree.runNanoseconds(of: $1) } },
      "echo": { ProcessTree.runNanoseconds(of: echoCat) },
    ]
  }

  func close() {
    rot13.close()
    echo.close()
    relay.close()
  }

  /// The service's own cost, beside the floor of any relay: what one
  /// process more on the way there and back costs (three cats against one)
  /// added to the runner's round trip.
  static func rows(_ latency: [String: Double], cpu: [String: Double]) {
    let (service, runner) = (latency["service-rot13"]!, latency["runner-rot13"]!)
    let (relay, echo) = (latency["relay"]!, latency["echo"]!)
    HostBenchmark.row(
      "warm latency per sentence, client → service → Rot13 (the service's own cost)", service,
      "Rot13 in a runner, no service", runner)
    HostBenchmark.row(
      "the floor of any relay: a byte through three cats joined by pipes (four wake-ups, as through the service)",
      relay, "one cat (two wake-ups, as a runner without the service)", echo)
    HostBenchmark.row(
      "the same floor for Rot13: its runner's round trip plus one relay's (three cats less one)", runner + relay - echo,
      "Rot13 in a runner, no service", runner)
    let floor = runner + relay - echo
    HostBenchmark.row("client → service → Rot13", service, "its floor (the runner's round trip plus a relay's)", floor)
    // The same split in CPU time, which the wake-ups' waits (a core's idle
    // state, a busy core) do not enter: what the service's threads run per
    // request against what a relay's process runs (three cats' less one's).
    var bound = "see Benchmarks/README.md"
    if let serviceCPU = cpu["service-rot13"], let relayCPU = cpu["relay"], let echoCPU = cpu["echo"] {
      HostBenchmark.row(
        "CPU per request of the service's threads, client → service → Rot13", serviceCPU,
        "a relay's (three cats' CPU less one's)", relayCPU - echoCPU)
      bound =
        "CPU per request: the service's threads \(HostBenchmark.format(serviceCPU)), "
        + "a relay's \(HostBenchmark.format(relayCPU - echoCPU)); " + bound
    }
    BenchSummary.record(
      .init(
        figure: "the service's own cost: client → service → Rot13 vs a bare relay (runner + relay floor)",
        value: HostBenchmark.format(service), baseline: HostBenchmark.format(floor), ratio: service / floor,
        goal: "≤ 1.2×", met: service / floor <= 1.2,
        bound: bound))
  }
}
