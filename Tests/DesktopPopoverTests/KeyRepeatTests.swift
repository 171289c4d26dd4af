import Testing

@testable import DesktopPopover

/// A held key in the layer surface (`KeyRepeat`): when it repeats, at the
/// compositor's rate, and what stops it. The timing itself is tested end to
/// end on sway (`DesktopSessions.LayerShell`).
@Suite struct KeyRepeatTests {
  enum Step: Sendable {
    case press(UInt32, repeats: Bool)
    case release(UInt32)
    case stop
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var rate: Int
    var delay: Int
    var steps: [Step]
    /// After each step: the first repeat's wait for a press (nil: none), nil for the others.
    var waits: [Duration?]
    /// The key repeating after the last step.
    var held: UInt32?
    var testDescription: String { name }
  }

  @Test(arguments: [
    Case(
      name: "sway's default: 600 ms, then 25 a second", rate: 25, delay: 600, steps: [.press(22, repeats: true)],
      waits: [.milliseconds(600)], held: 22),
    Case(
      name: "released: it stops", rate: 25, delay: 600, steps: [.press(22, repeats: true), .release(22)],
      waits: [.milliseconds(600), nil], held: nil),
    Case(
      name: "another key released: it goes on", rate: 25, delay: 600, steps: [.press(22, repeats: true), .release(50)],
      waits: [.milliseconds(600), nil], held: 22),
    Case(
      name: "a second key pressed takes over", rate: 30, delay: 200,
      steps: [.press(113, repeats: true), .press(114, repeats: true)], waits: [.milliseconds(200), .milliseconds(200)],
      held: 114),
    Case(
      name: "a key the keymap does not repeat (Shift) stops the held one", rate: 25, delay: 600,
      steps: [.press(22, repeats: true), .press(50, repeats: false)], waits: [.milliseconds(600), nil], held: nil),
    Case(
      name: "rate 0: no key repeats", rate: 0, delay: 600, steps: [.press(22, repeats: true)], waits: [nil], held: nil),
    Case(
      name: "the focus gone: it stops", rate: 25, delay: 600, steps: [.press(22, repeats: true), .stop],
      waits: [.milliseconds(600), nil], held: nil),
  ])
  func aHeldKeyRepeatsUntilReleased(_ test: Case) {
    var repeating = KeyRepeat(rate: test.rate, delay: test.delay)
    var waits: [Duration?] = []
    for step in test.steps {
      switch step {
      case .press(let code, let repeats): waits.append(repeating.pressed(keycode: code, repeats: repeats))
      case .release(let code):
        repeating.released(keycode: code)
        waits.append(nil)
      case .stop:
        repeating.stop()
        waits.append(nil)
      }
    }
    #expect(waits == test.waits)
    #expect(repeating.held == test.held)
  }

  @Test(arguments: [(25, Duration.milliseconds(40)), (33, .milliseconds(30)), (100, .milliseconds(10)), (1, .seconds(1))])
  func theIntervalIsTheRatesInverse(_ rate: Int, _ interval: Duration) {
    #expect(KeyRepeat(rate: rate, delay: 600).interval == interval)
  }
}
