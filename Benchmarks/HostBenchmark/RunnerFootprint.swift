import Core
import FoundationEssentials
import Glibc
import RunnerProtocol
import Service

/// The runner's footprint: the resident memory of a freshly started runner
/// that loaded a provider (Reverse, a Swift SDK provider, and Rot13, a C
/// one), the shared objects it maps and the size of its executable, beside
/// `/bin/cat` kept alive (EchoPeer) measured the same way in the same run.
///
/// A runner is three processes (`CRunnerSandbox/sandbox_process.c`): the
/// one the host spawns, PID 1 of its PID namespace, and the runner proper,
/// PID 2, which loads the provider. All three are forks of one executable,
/// so the summed RSS counts their shared pages once per process; the runner
/// proper's own figures are the ones a provider's author sees.
enum RunnerFootprint {
  /// What one start shows: the working process (the runner proper, or cat)
  /// and its whole tree.
  struct Sample {
    var residentKiB = 0
    var peakKiB = 0
    var treeResidentKiB = 0
    var treePeakKiB = 0
    var processes = 0
    var sharedObjects: [String]? = nil
  }

  /// The libraries a runner that links only what it needs leaves out (issue 12),
  /// by a name and how their file names begin.
  static let watched: [(name: String, prefixes: [String])] = [
    ("Foundation", ["libFoundation.so"]),
    ("FoundationInternationalization", ["libFoundationInternationalization"]),
    ("ICU", ["libicu", "lib_FoundationICU"]),
    ("CLD2", ["libcld2"]),
  ]

  /// Prints the rows: memory per provider, then the shared objects and the executable.
  static func run(build: String, starts: Int = 9) throws {
    let runnerPath = build + "/libexec/translation-host/translation-provider-runner"
    let cat = try (0..<starts).map { _ in try catSample() }
    let base = median(cat)
    let alive = "/bin/cat kept alive"
    var libraries: [(provider: String, objects: [String]?)] = []
    for (provider, kind) in [("Reverse", "Swift SDK provider"), ("Rot13", "C provider")] {
      let bundle = try ProviderBundle.load(at: build + "/lib/translation-host/providers/\(provider).translationprovider")
      let policy = try SandboxPolicy.forBundle(bundle)
      let samples = try (0..<starts).map { _ in try runnerSample(bundle: bundle, policy: policy, runnerPath: runnerPath) }
      let runner = median(samples)
      let count = runner.processes
      memoryRow(
        "runner memory at ready, \(provider) (\(kind)) loaded, \(starts) starts: the runner proper, RSS",
        runner.residentKiB, alive, base.residentKiB)
      memoryRow("the same, peak (VmHWM)", runner.peakKiB, alive, base.peakKiB)
      memoryRow("the same, its \(count) processes, RSS summed", runner.treeResidentKiB, alive, base.treeResidentKiB)
      memoryRow("the same, its \(count) processes, VmHWM summed", runner.treePeakKiB, alive, base.treePeakKiB)
      libraries.append((provider, samples.first?.sharedObjects))
    }

    let catObjects = cat.first?.sharedObjects ?? []
    for (provider, objects) in libraries {
      let name = "shared objects the runner proper maps, \(provider) loaded (its own .so included)"
      guard let objects else {
        print("| \(name) | unreadable (/proc/<pid>/maps) | \(catObjects.count) | |")
        continue
      }
      let ratio = catObjects.isEmpty ? "" : "\(String(format2: Double(objects.count) / Double(catObjects.count)))×"
      print("| \(name) vs /bin/cat | \(objects.count) | \(catObjects.count) | \(ratio) |")
      memoryRow("the same, their files' total size", totalSize(objects) / 1024, "/bin/cat's", totalSize(catObjects) / 1024)
      let names = watched.map(\.name).joined(separator: ", ")
      print("| the same, of which \(names) | \(present(in: objects)) | \(present(in: catObjects)) | |")
    }
    let runnerKiB = (ProcessTree.fileSize(runnerPath) ?? 0) / 1024
    memoryRow("runner executable size", runnerKiB, "/bin/cat", (ProcessTree.fileSize("/bin/cat") ?? 0) / 1024)
  }

  /// One runner started under `policy` until it is ready (the provider is
  /// loaded), measured, and closed.
  static func runnerSample(bundle: ProviderBundle, policy: SandboxPolicy, runnerPath: String) throws -> Sample {
    let before = Set(ProcessTree.children(of: getpid()))
    let client = try RunnerClient.launch(bundle: bundle, policy: policy, runnerPath: runnerPath, timeout: .seconds(30))
    defer { client.close() }
    let started = ProcessTree.children(of: getpid()).filter { !before.contains($0) }
    guard started.count == 1, let spawned = started.first else {
      throw LoopbackHTTP.Failure(description: "expected one new child for the runner, found \(started)")
    }
    // Reverse and Rot13 start no processes: the tree is one chain, and the
    // runner proper is its last process.
    let tree = [spawned] + ProcessTree.descendants(of: spawned)
    return sample(working: tree.last!, tree: tree)
  }

  /// `/bin/cat` kept alive, measured once it has echoed a byte (it is then
  /// blocked in `read`, as a ready runner is).
  static func catSample() throws -> Sample {
    let echo = try EchoPeer()
    defer { echo.close() }
    try echo.roundTrip()
    return sample(working: echo.pid, tree: [echo.pid])
  }

  static func sample(working: pid_t, tree: [pid_t]) -> Sample {
    Sample(
      residentKiB: ProcessTree.statusKiB("VmRSS", of: working), peakKiB: ProcessTree.statusKiB("VmHWM", of: working),
      treeResidentKiB: tree.reduce(0) { $0 + ProcessTree.statusKiB("VmRSS", of: $1) },
      treePeakKiB: tree.reduce(0) { $0 + ProcessTree.statusKiB("VmHWM", of: $1) }, processes: tree.count,
      sharedObjects: ProcessTree.sharedObjects(of: working))
  }

  /// Each figure's median over the samples, on its own.
  static func median(_ samples: [Sample]) -> Sample {
    func middle(_ figure: KeyPath<Sample, Int>) -> Int { samples.map { $0[keyPath: figure] }.sorted()[samples.count / 2] }
    return Sample(
      residentKiB: middle(\.residentKiB), peakKiB: middle(\.peakKiB), treeResidentKiB: middle(\.treeResidentKiB),
      treePeakKiB: middle(\.treePeakKiB), processes: middle(\.processes))
  }

  /// Which of `watched` are among `objects`, with the files that matched.
  static func present(in objects: [String]) -> String {
    let found = watched.compactMap { library -> String? in
      let files = objects.map { String($0.split(separator: "/").last ?? "") }.filter { file in
        library.prefixes.contains { file.hasPrefix($0) }
      }
      return files.isEmpty ? nil : "\(library.name) (\(files.joined(separator: ", ")))"
    }
    return found.isEmpty ? "none" : found.joined(separator: "; ")
  }

  /// The summed size of the files at `paths` that can be `stat`ed from here.
  static func totalSize(_ paths: [String]) -> Int { paths.reduce(0) { $0 + (ProcessTree.fileSize($1) ?? 0) } }

  /// A row of sizes in KiB, shown in MiB from 1 MiB up.
  static func memoryRow(_ name: String, _ kib: Int, _ baseline: String, _ baselineKiB: Int) {
    let ratio = baselineKiB > 0 ? "\(String(format2: Double(kib) / Double(baselineKiB)))×" : ""
    print("| \(name) vs \(baseline) | \(size(kib)) | \(size(baselineKiB)) | \(ratio) |")
  }

  static func size(_ kib: Int) -> String { kib < 1024 ? "\(kib) KiB" : "\(String(format2: Double(kib) / 1024)) MiB" }
}
