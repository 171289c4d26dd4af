import CGDBus
import Foundation
import Glibc
import Service
import System
import Translation

/// D-Bus against the socket, side by side in one run (`host-benchmark
/// <build> dbus [count]`): one warm sentence through
/// org.translationhost.Translation1's `Translate` (GDBus in this process,
/// a private bus daemon) against the same sentence through the service's
/// socket (`ServiceClient`, the path of the CLI and the library), both to
/// the same `translation-host serve`, interleaved sentence by sentence, for
/// Apertium and for Rot13 (where the transport is most of the cost). And
/// `LanguageAvailability.status` warm, against the `apt-cache` query it
/// made before the pair list was cached.
enum BusBenchmark {
  static func run(build: String, count: Int = 1_000) throws {
    let bus = try PrivateBus()
    defer { bus.stop() }
    setenv("DBUS_SESSION_BUS_ADDRESS", bus.address, 1)
    let fixture = try ServiceFixture(build: build)
    defer { fixture.stop() }
    let (client, _) = try fixture.waitUntilReady()
    let connection = try bus.connect()
    defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
    // Over D-Bus a bundle is named by its absolute path (the service's working folder is not ours): `make bench` passes `build`.
    let rot13 = URL(fileURLWithPath: build + "/lib/translation-host/providers/Rot13.translationprovider").path
    // The service joins the bus as it starts: wait for the name.
    let deadline = Syscalls.monotonicNanoseconds() + 30_000_000_000
    while (try? translate(connection, "The cat.", "en", "en-x-rot13", rot13)) == nil {
      guard Syscalls.monotonicNanoseconds() < deadline else { throw Failure(description: "the service never joined the bus") }
      usleep(100_000)
    }
    let paths: [(String, (String) throws -> Void)] = [
      ("socket-apertium", { _ = try client.translate([$0], from: "en", to: "es", provider: "Apertium") }),
      ("dbus-apertium", { try translate(connection, $0, "en", "es", "Apertium") }),
      ("socket-rot13", { _ = try client.translate([$0], from: "en", to: "en-x-rot13", provider: rot13) }),
      ("dbus-rot13", { try translate(connection, $0, "en", "en-x-rot13", rot13) }),
    ]
    // Each path its own sentences: Apertium's translation memory would answer a sentence seen before.
    for (index, (_, path)) in paths.enumerated() {
      for text in ServiceBenchmark.sentences(50, from: 80_000 + index * 1_000) { try path(text) }
    }
    var samples = [String: [Double]]()
    for round in 0..<count {
      for (index, (name, path)) in paths.enumerated() {
        let text = ServiceBenchmark.sentences(1, from: index * 20_000 + round % 20_000)[0]
        let start = Syscalls.monotonicNanoseconds()
        try path(text)
        samples[name, default: []].append(Double(Syscalls.monotonicNanoseconds() - start) / 1e9)
      }
      // The bus's own round trip to the service: Peer.Ping, which GDBus answers itself.
      let start = Syscalls.monotonicNanoseconds()
      try ping(connection)
      samples["ping", default: []].append(Double(Syscalls.monotonicNanoseconds() - start) / 1e9)
    }
    let latency = samples.mapValues(ServiceBenchmark.median)

    // LanguageAvailability through the same service, warm, against one `apt-cache pkgnames apertium-`.
    let availability = LanguageAvailability(provider: "Apertium", serviceEnvironment: fixture.environment)
    var statusSamples: [Double] = []
    for round in 0..<60 {
      let start = Syscalls.monotonicNanoseconds()
      let status = blocking {
        await availability.status(from: Locale.Language(identifier: "en"), to: Locale.Language(identifier: "es"))
      }
      if round >= 10 { statusSamples.append(Double(Syscalls.monotonicNanoseconds() - start) / 1e9) }
      guard status == .installed else { throw Failure(description: "en → es is \(status), not installed") }
    }
    let aptCache = try HostBenchmark.medianOfProcess(
      runs: 5, "/usr/bin/apt-cache", ["pkgnames", "apertium-"], fixture.environment)

    print("\nD-Bus and the socket, medians (\(count) sentences, interleaved; \(ProcessTree.loadAverage()))\n")
    print("| measure | D-Bus | baseline | ratio |")
    print("|---|---:|---:|---:|")
    HostBenchmark.row(
      "warm sentence, `Translate` over D-Bus → Apertium", latency["dbus-apertium"]!, "the same through the socket",
      latency["socket-apertium"]!)
    HostBenchmark.row(
      "warm sentence, `Translate` over D-Bus → Rot13", latency["dbus-rot13"]!, "the same through the socket",
      latency["socket-rot13"]!)
    HostBenchmark.row(
      "`org.freedesktop.DBus.Peer.Ping` of the service (the bus's own round trip)", latency["ping"]!,
      "a Rot13 sentence through the socket", latency["socket-rot13"]!)
    HostBenchmark.row(
      "`LanguageAvailability.status(from: en, to: es)` warm (library → service → Apertium)",
      ServiceBenchmark.median(statusSamples), "one `apt-cache pkgnames apertium-` (each query's cost before the cache)",
      aptCache)
    print("\nGoals (issue 26, DESIGN §9): D-Bus ≤ 1.3× the socket; LanguageAvailability status warm ≤ 5 ms.")
    let (overBus, throughSocket) = (latency["dbus-apertium"]!, latency["socket-apertium"]!)
    BenchSummary.record(
      .init(
        figure: "D-Bus `Translate`, one sentence (Apertium)", value: HostBenchmark.format(overBus),
        baseline: HostBenchmark.format(throughSocket) + " (the socket)", ratio: overBus / throughSocket, goal: "≤ 1.3×",
        met: overBus / throughSocket <= 1.3))
    let status = ServiceBenchmark.median(statusSamples)
    BenchSummary.record(
      .init(
        figure: "`LanguageAvailability` status, warm", value: HostBenchmark.format(status),
        baseline: HostBenchmark.format(aptCache) + " (apt-cache)", ratio: status / aptCache, goal: "≤ 5 ms",
        met: status <= 5e-3))
  }

  /// `LanguageAvailability.status(from: en, to: es)` once, in this fresh
  /// process, without the service (its own runner): `host-benchmark <build>
  /// availability-once`, spawned by `runFirstQuery`.
  static func availabilityOnce() throws {
    let status = blocking {
      await LanguageAvailability(provider: "Apertium").status(
        from: Locale.Language(identifier: "en"), to: Locale.Language(identifier: "es"))
    }
    guard status == .installed else { throw Failure(description: "en → es is \(status), not installed") }
  }

  /// The first `LanguageAvailability` query of a fresh process (a new
  /// runner of the Apertium provider), with the pair list its runners keep
  /// in a file (`PairPackageCache`) against the same with the file removed
  /// before each run, which is what every new runner paid before the file
  /// (one `apt-cache pkgnames apertium-`): `host-benchmark <build> availability`.
  static func runFirstQuery(build: String, runs: Int = 7) throws {
    var template = Array((FileManager.default.temporaryDirectory.path + "/availability-benchmark-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw Errno.current }
    let home = String(cString: made)
    defer { try? FileManager.default.removeItem(atPath: home) }
    var environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": home]
    for (variable, folder) in [("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"), ("XDG_CACHE_HOME", "cache")] {
      environment[variable] = home + "/" + folder
    }
    environment["XDG_RUNTIME_DIR"] = home + "/run"
    environment["TRANSLATION_HOST_RUNNER"] = build + "/libexec/translation-host/translation-provider-runner"
    environment["TRANSLATION_HOST_PROVIDER_PATH"] = build + "/lib/translation-host/providers"
    let me = CommandLine.arguments[0]
    let file =
      home + "/data/translation-host/containers/org.translationhost.apertium/.cache/translation-host/apertium-pair-packages"
    try HostBenchmark.spawnAndWait(me, [build, "availability-once"], environment: environment.map { "\($0.key)=\($0.value)" })
    guard FileManager.default.fileExists(atPath: file) else { throw Failure(description: "no pair list kept at \(file)") }
    var kept: [Double] = []
    var asked: [Double] = []
    for _ in 0..<runs {
      for removing in [false, true] {
        if removing { unlink(file) }
        let start = Syscalls.monotonicNanoseconds()
        try HostBenchmark.spawnAndWait(
          me, [build, "availability-once"], environment: environment.map { "\($0.key)=\($0.value)" })
        let seconds = Double(Syscalls.monotonicNanoseconds() - start) / 1e9
        if removing { asked.append(seconds) } else { kept.append(seconds) }
      }
    }
    let (withFile, withoutFile) = (ServiceBenchmark.median(kept), ServiceBenchmark.median(asked))
    print(
      "\nThe first availability query of a fresh process, medians (\(runs) runs each, interleaved; \(ProcessTree.loadAverage()))\n"
    )
    print("| measure | value | baseline | ratio |")
    print("|---|---:|---:|---:|")
    HostBenchmark.row(
      "fresh process: `LanguageAvailability.status(en → es)`, pair list kept by earlier runners", withFile,
      "the same, the list asked of apt (every new runner before)", withoutFile)
  }

  /// One `Translate` call of one text, blocking.
  static func translate(_ connection: OpaquePointer, _ text: String, _ source: String, _ target: String, _ provider: String)
    throws
  {
    let texts = text.withCString { pointer -> OpaquePointer in
      var array: [UnsafePointer<CChar>?] = [pointer]
      return g_variant_new_strv(&array, 1)
    }
    var children: [OpaquePointer?] = [
      texts, g_variant_new_string(source), g_variant_new_string(target), g_variant_new_string(provider),
    ]
    let arguments = g_variant_new_tuple(&children, 4)
    var error: UnsafeMutablePointer<GError>?
    let reply = g_dbus_connection_call_sync(
      connection, "org.translationhost.Translation1", "/org/translationhost/Translation1", "org.translationhost.Translation1",
      "Translate", arguments, nil, G_DBUS_CALL_FLAGS_NONE, 30_000, nil, &error)
    guard let reply else {
      let message = error.map { String(cString: $0.pointee.message) } ?? "no reply"
      if let error { g_error_free(error) }
      throw Failure(description: message)
    }
    g_variant_unref(reply)
  }

  /// `Peer.Ping` of the service's connection, blocking.
  static func ping(_ connection: OpaquePointer) throws {
    var error: UnsafeMutablePointer<GError>?
    let reply = g_dbus_connection_call_sync(
      connection, "org.translationhost.Translation1", "/org/translationhost/Translation1", "org.freedesktop.DBus.Peer",
      "Ping", nil, nil, G_DBUS_CALL_FLAGS_NONE, 30_000, nil, &error)
    guard let reply else {
      if let error { g_error_free(error) }
      throw Failure(description: "Ping was not answered")
    }
    g_variant_unref(reply)
  }

  /// Runs `body` to its end from synchronous code.
  static func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let done = DispatchSemaphore(value: 0)
    let box = Box<T>()
    Task {
      box.value = await body()
      done.signal()
    }
    done.wait()
    return box.value!
  }

  private final class Box<T>: @unchecked Sendable { var value: T? }

  struct Failure: Error, CustomStringConvertible { var description: String }

  /// A session bus daemon of its own, on a socket in a temporary folder, stopped by process id.
  final class PrivateBus {
    let folder: String
    let address: String
    private let pid: pid_t

    init() throws {
      var template = Array((FileManager.default.temporaryDirectory.path + "/bus-benchmark-XXXXXX").utf8CString)
      guard let made = mkdtemp(&template) else { throw Errno.current }
      folder = String(cString: made)
      address = "unix:path=" + folder + "/bus"
      let configuration = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>\(address)</listen>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
      try configuration.write(toFile: folder + "/session.conf", atomically: true, encoding: .utf8)
      pid = try ServiceFixture.start(
        "/usr/bin/dbus-daemon", ["--config-file=" + folder + "/session.conf", "--nofork", "--nopidfile"],
        ProcessInfo.processInfo.environment)
      for _ in 0..<100 where !FileManager.default.fileExists(atPath: folder + "/bus") { usleep(50_000) }
    }

    func connect() throws -> OpaquePointer {
      var error: UnsafeMutablePointer<GError>?
      let flags = GDBusConnectionFlags(
        rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue
      )
      guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
        let message = error.map { String(cString: $0.pointee.message) } ?? "no connection"
        if let error { g_error_free(error) }
        throw Failure(description: "cannot connect to the private bus: \(message)")
      }
      return connection
    }

    func stop() {
      Syscalls.kill(pid, .terminate)
      _ = try? Syscalls.wait(pid)
      try? FileManager.default.removeItem(atPath: folder)
    }
  }
}
