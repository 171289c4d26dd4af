import Core
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

  func close() {
    rot13.close()
    echo.close()
    relay.close()
  }

  /// The service's own cost, beside the floor of any relay: what one
  /// process more on the way there and back costs (three cats against one)
  /// added to the runner's round trip.
  static func rows(_ latency: [String: Double]) {
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
    BenchSummary.record(
      .init(
        figure: "the service's own cost: client → service → Rot13 vs a bare relay (runner + relay floor)",
        value: HostBenchmark.format(service), baseline: HostBenchmark.format(floor), ratio: service / floor,
        goal: "≤ 1.2×", met: service / floor <= 1.2,
        bound: "the service's CPU per request above the relay's; see Benchmarks/README.md"))
  }
}
