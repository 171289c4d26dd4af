import Testing

@testable import DesktopPopover

/// Fingers on the layer surface (`LayerTouchTracker`): what each sequence of
/// the compositor's touch events presses or dismisses. Headless sway has no
/// touch device and no protocol to add one, so the mapping is tested here;
/// the control under a tap is found as a click's is (`LayerSceneLayout.control`).
@Suite struct LayerTouchTrackerTests {
  enum Step: Sendable {
    case down(Int32, Double, Double, inside: Bool)
    case up(Int32)
    case cancel
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var steps: [Step]
    /// The outcome of each step.
    var outcomes: [LayerTouchTracker.Outcome]
    var testDescription: String { name }
  }

  @Test(arguments: [
    Case(
      name: "a tap on the popover presses where the finger went down", steps: [.down(1, 40, 60, inside: true), .up(1)],
      outcomes: [.nothing, .tap(x: 40, y: 60)]),
    Case(
      name: "a finger down outside dismisses at once", steps: [.down(3, 900, 700, inside: false), .up(3)],
      outcomes: [.dismiss, .nothing]),
    Case(
      name: "a cancelled touch presses nothing", steps: [.down(1, 40, 60, inside: true), .cancel, .up(1)],
      outcomes: [.nothing, .nothing, .nothing]),
    Case(
      name: "two fingers: each tap where it went down",
      steps: [.down(1, 10, 10, inside: true), .down(2, 50, 20, inside: true), .up(2), .up(1)],
      outcomes: [.nothing, .nothing, .tap(x: 50, y: 20), .tap(x: 10, y: 10)]),
    Case(
      name: "a lift never announced presses nothing", steps: [.up(7)], outcomes: [.nothing]),
    Case(
      name: "a finger outside while another is down: dismissed, the other presses nothing",
      steps: [.down(1, 10, 10, inside: true), .down(2, 900, 10, inside: false), .up(1)],
      outcomes: [.nothing, .dismiss, .nothing]),
  ])
  func touchesMapToTapsAndDismissal(_ test: Case) {
    var tracker = LayerTouchTracker()
    var outcomes: [LayerTouchTracker.Outcome] = []
    for step in test.steps {
      switch step {
      case .down(let id, let x, let y, let inside): outcomes.append(tracker.down(id: id, x: x, y: y, inside: inside))
      case .up(let id): outcomes.append(tracker.up(id: id))
      case .cancel:
        tracker.cancel()
        outcomes.append(.nothing)
      }
    }
    #expect(outcomes == test.outcomes)
    #expect(tracker.fingersDown == 0)
  }
}
