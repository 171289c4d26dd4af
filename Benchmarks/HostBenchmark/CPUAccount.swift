import Glibc

/// Where the CPU of a throughput run goes, part by part, summed over the
/// runs of one way of feeding the engine: this process's threads (the 8
/// clients, or the bound's feeders), the service, its runners, and
/// Apertium's stages (the runners', or this process's own engines'). With
/// both cores busy, a way's words per second are about the machine's CPU
/// over its CPU per sentence: the ratio of the two ways' CPU per sentence
/// says what the goal's ratio can be at best, and the parts say whose it is.
struct CPUAccount {
  /// The parts, in the order they are printed.
  static let parts = ["this process (clients or feeders)", "the service", "its runners", "Apertium's stages"]

  private(set) var seconds: [String: Double] = [:]
  private(set) var sentences = 0

  /// The processes a sample reads: the service's tree, and the processes
  /// of this one that are not the service's or apertium-apy's (its engines' stages).
  struct Processes {
    let service: pid_t
    let apy: pid_t
  }

  /// The CPU each part used so far, in seconds.
  static func sample(_ processes: Processes) -> [String: Double] {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    var sample = ["this process (clients or feeders)": seconds(usage.ru_utime) + seconds(usage.ru_stime)]
    sample["the service"] = ProcessTree.cpuSeconds(of: processes.service)
    let serviceTree = ProcessTree.descendants(of: processes.service)
    // A runner's comm is its executable's name cut to 15 bytes.
    let runners = serviceTree.filter { ProcessTree.name(of: $0).hasPrefix("translation-pro") }
    sample["its runners"] = runners.reduce(0) { $0 + ProcessTree.cpuSeconds(of: $1) }
    let excluded = Set([processes.service, processes.apy] + serviceTree + ProcessTree.descendants(of: processes.apy))
    let ownStages = ProcessTree.descendants(of: getpid()).filter { !excluded.contains($0) }
    sample["Apertium's stages"] = (serviceTree.filter { !runners.contains($0) } + ownStages).reduce(0) {
      $0 + ProcessTree.cpuSeconds(of: $1)
    }
    return sample
  }

  /// Runs `body`, which translates `sentences`, and adds what each part used meanwhile.
  mutating func measure<T>(_ processes: Processes, sentences: Int, _ body: () throws -> T) rethrows -> T {
    let before = Self.sample(processes)
    let result = try body()
    for (part, used) in Self.sample(processes) { seconds[part, default: 0] += used - (before[part] ?? 0) }
    self.sentences += sentences
    return result
  }

  /// Microseconds of `part` per sentence (all parts: nil).
  func perSentence(_ part: String? = nil) -> Double {
    let used = part.map { seconds[$0] ?? 0 } ?? seconds.values.reduce(0, +)
    return sentences == 0 ? 0 : used / Double(sentences) * 1e6
  }
}
