import System
import Testing

/// Deadlines from any number of seconds, at any time since boot, saturate
/// instead of trapping.
@Suite struct DeadlineTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var seconds: Double
    var now: UInt64
    var after: UInt64
    var before: UInt64
  }

  static let cases: [Case] = [
    Case(testDescription: "an ordinary span", seconds: 2, now: 10_000_000_000, after: 12_000_000_000, before: 8_000_000_000),
    Case(testDescription: "longer than the machine has been up", seconds: 300, now: 60_000_000_000, after: 360_000_000_000, before: 0),
    Case(testDescription: "a huge span", seconds: 1e300, now: 5, after: .max, before: 0),
    Case(testDescription: "an infinite span", seconds: .infinity, now: 5, after: .max, before: 0),
    Case(testDescription: "just past the clock's end", seconds: 1, now: .max - 10, after: .max, before: .max - 1_000_000_010),
    Case(testDescription: "not a number", seconds: .nan, now: 7, after: 7, before: 7),
    Case(testDescription: "a negative span", seconds: -3, now: 7, after: 7, before: 7),
    Case(testDescription: "a fraction", seconds: 0.25, now: 1_000_000_000, after: 1_250_000_000, before: 750_000_000),
  ]

  @Test(arguments: cases) func saturates(_ test: Case) {
    #expect(Deadline.after(test.seconds, from: test.now) == test.after)
    #expect(Deadline.before(test.seconds, from: test.now) == test.before)
  }
}
