import Glibc
import Synchronization

/// Names that no other test, and no other test run on the machine, uses at
/// the same time: bundle identifiers a test looks for in the process list,
/// abstract socket names it binds. Made of this process's id and a counter,
/// not drawn at random: nothing to seed and nothing to collide. The counter
/// has a fixed width, so no name is the beginning of another.
package enum UniqueName {
  private static let counter = Atomic<Int>(0)

  /// `prefix`, this process's id and the next number: `org.example.hostile-4242-000001`.
  package static func make(_ prefix: String) -> String {
    let number = counter.add(1, ordering: .relaxed).newValue
    let digits = String(number)
    return "\(prefix)-\(getpid())-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
  }
}
