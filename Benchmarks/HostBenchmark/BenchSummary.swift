import FoundationEssentials
import Glibc

/// The rows of `make bench`'s one-screen summary that this benchmark
/// measures: one JSON object a line, appended to the file `BENCH_SUMMARY`
/// names (nothing when it is unset), read by `Benchmarks/summary.py`, as the
/// Python benchmarks' `record` writes them.
enum BenchSummary {
  struct Row: Encodable {
    let figure: String
    let value: String
    let baseline: String
    let ratio: Double?
    let goal: String
    let met: Bool?
    var bound = ""
    /// A row whose baseline another benchmark measures (`summary.py` divides
    /// `number` by that row's, and checks `goal`'s figure): `feeding-bound`.
    var baselineKey = ""
    var key = ""
    var number = 0.0
    var by = "host-benchmark"
  }

  static func record(_ row: Row) {
    guard let path = ProcessInfo.processInfo.environment["BENCH_SUMMARY"], !path.isEmpty,
      let data = try? JSONEncoder().encode(row), let file = fopen(path, "a")
    else { return }
    defer { fclose(file) }
    _ = data.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    fputc(0x0A, file)
  }
}
