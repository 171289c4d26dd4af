import System
import Testing

/// Spans from any number of seconds saturate instead of trapping, and so do
/// the deadlines made from them.
@Suite struct DeadlineTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var seconds: Double
    var span: Duration
    var pollMilliseconds: Int32
  }

  static let cases: [Case] = [
    Case(testDescription: "an ordinary span", seconds: 2, span: .seconds(2), pollMilliseconds: 2000),
    Case(testDescription: "a huge span", seconds: 1e300, span: .forever, pollMilliseconds: .max),
    Case(testDescription: "an infinite span", seconds: .infinity, span: .forever, pollMilliseconds: .max),
    Case(testDescription: "not a number", seconds: .nan, span: .zero, pollMilliseconds: 0),
    Case(testDescription: "a negative span", seconds: -3, span: .zero, pollMilliseconds: 0),
    Case(testDescription: "a fraction", seconds: 0.25, span: .milliseconds(250), pollMilliseconds: 250),
    Case(testDescription: "seconds and a fraction", seconds: 24.5, span: .milliseconds(24_500), pollMilliseconds: 24_500),
    Case(
      testDescription: "just under forever", seconds: 100 * 365 * 86_400 - 0.5, span: .forever - .milliseconds(500),
      pollMilliseconds: .max),
    Case(testDescription: "less than a millisecond waits one", seconds: 0.0001, span: .microseconds(100), pollMilliseconds: 1),
  ]

  @Test(arguments: cases) func saturates(_ test: Case) {
    let span = Duration.seconds(saturating: test.seconds)
    #expect(span == test.span)
    #expect(span.pollMilliseconds == test.pollMilliseconds)
    let deadline = ContinuousClock.Instant.after(span)
    #expect(deadline <= .now.advanced(by: .forever))
    #expect(deadline.remaining <= span)
  }

  @Test func aPassedDeadlineHasNothingLeft() {
    let passed = ContinuousClock.now.advanced(by: .seconds(-1))
    #expect(passed.hasPassed)
    #expect(passed.remaining == .zero)
    #expect(!ContinuousClock.Instant.after(.seconds(60)).hasPassed)
  }

  @Test(arguments: [(Duration.seconds(2), "2 s"), (.milliseconds(250), "0.25 s"), (.seconds(600), "600 s")])
  func spansReadAsPeopleTypeThem(_ span: Duration, _ text: String) {
    #expect(span.readable == text)
  }
}
