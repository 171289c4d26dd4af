import Presentation
import Service
import System
import Testing
import TranslationViewTree

/// The popover controller's rules, driven by events as a front end would
/// send them, without a terminal, a display or a provider.
@Suite struct PopoverControllerTests {
  /// A scene: a field, two buttons (the second disabled unless `enabled`), optionally a progress view.
  static func scene(field: String = "", busy: Bool = false, enabled: Bool = false, extra: String? = nil) -> ViewTree {
    var children: [ViewNode] = [
      .text("Hello"),
      .textField(id: "field", placeholder: "", text: field, isEnabled: true),
      .button(id: "translate", isEnabled: true, label: .text("Translate")),
      .button(id: "replace", isEnabled: enabled, label: .text("Replace")),
    ]
    if busy { children.append(.progress(label: nil, fraction: nil)) }
    if let extra { children.append(.button(id: extra, isEnabled: true, label: .text(extra))) }
    return ViewTree(root: .vstack(alignment: "leading", spacing: nil, children: children))
  }

  struct Failure: Error, Equatable {}

  /// One step of a script: an event at a time after the start, and the effects it must give.
  struct Step: Sendable {
    var event: @Sendable () -> PopoverEvent
    var at: Duration
    var effects: [PopoverEffect]

    init(_ event: @autoclosure @escaping @Sendable () -> PopoverEvent, at: Duration = .zero, _ effects: [PopoverEffect]) {
      self.event = event
      self.at = at
      self.effects = effects
    }
  }

  enum End: Equatable, Sendable {
    case goesOn, finished(String?), dismissed, failed, interrupted(Int32), stillBusy
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var watches = true
    var frameInterval: Duration?
    var first = PopoverControllerTests.scene()
    var begins: [PopoverEffect] = [.redraw, .start(.takeChange)]
    var steps: [Step]
    var end: End = .goesOn
    var focus: String?? = .none
    var queue: [PopoverAction]?
    var texts: [String: String] = [:]
    var testDescription: String { name }
  }

  static let nothing: Result<SceneUpdate?, any Error> = .success(nil)
  static func view(_ tree: ViewTree) -> Result<SceneUpdate?, any Error> { .success(.view(tree)) }

  static let cases: [Case] = [
    Case(
      name: "the first look for changes, then the watch",
      steps: [Step(.callFinished(nothing), [.watchChanges])], focus: "field"),
    Case(
      name: "a content that never changes on its own is not asked",
      watches: false, begins: [.redraw],
      steps: [Step(.action(.press("translate")), [.start(.action(.press("translate")))])]),
    Case(
      name: "a press while the watch is armed starts at once",
      steps: [
        Step(.callFinished(nothing), [.watchChanges]),
        Step(.action(.press("translate")), [.start(.action(.press("translate")))]),
      ]),
    Case(
      name: "actions during a call wait in order, and edits of one field merge",
      steps: [
        Step(.action(.edit("field", text: "a")), []),
        Step(.action(.edit("field", text: "ab")), []),
        Step(.action(.press("translate")), []),
        Step(.action(.edit("field", text: "abc")), []),
      ],
      queue: [.edit("field", text: "ab"), .press("translate"), .edit("field", text: "abc")],
      texts: ["field": "abc"]),
    Case(
      name: "queued actions go before the next look for changes",
      steps: [
        Step(.callFinished(nothing), [.watchChanges]),
        Step(.action(.edit("field", text: "a")), [.start(.action(.edit("field", text: "a")))]),
        Step(.action(.edit("field", text: "ab")), []),
        Step(
          .callFinished(view(scene(field: "a"))),
          [.redraw, .start(.action(.edit("field", text: "ab")))]),
        Step(.callFinished(view(scene(field: "ab"))), [.redraw, .start(.takeChange)]),
        Step(.callFinished(nothing), [.watchChanges]),
      ],
      texts: ["field": "ab"]),
    Case(
      name: "the field shows what was typed while its edit waits",
      steps: [Step(.action(.edit("field", text: "typed")), [])],
      texts: ["field": "typed"]),
    Case(
      name: "the watch fires: a look for changes",
      steps: [
        Step(.callFinished(nothing), [.watchChanges]),
        Step(.changeReady, [.start(.takeChange)]),
        Step(.callFinished(view(scene(enabled: true))), [.redraw, .start(.takeChange)]),
      ]),
    Case(
      name: "an unchanged tree is not drawn again",
      steps: [Step(.callFinished(view(scene())), [.start(.takeChange)])]),
    Case(
      name: "finishing with a translation ends",
      steps: [Step(.callFinished(.success(.finished(translation: "Hola"))), [.end])], end: .finished("Hola")),
    Case(
      name: "finishing without one ends too",
      steps: [Step(.callFinished(.success(.finished(translation: nil))), [.end])], end: .finished(nil)),
    Case(
      name: "a failing call ends with its error",
      steps: [Step(.callFinished(.failure(Failure())), [.end])], end: .failed),
    Case(
      name: "Esc during a call interrupts it",
      steps: [Step(.dismiss, [.interrupt, .end])], end: .dismissed),
    Case(
      name: "Esc while idle just ends",
      steps: [Step(.callFinished(nothing), [.watchChanges]), Step(.dismiss, [.end])], end: .dismissed),
    Case(
      name: "Copy ends once the call in progress is answered, interrupting nothing",
      steps: [
        Step(.action(.press("translate")), []),
        Step(.dismissAfterCall, []),
        Step(.callFinished(view(scene(enabled: true))), [.redraw, .end]),
      ],
      end: .dismissed),
    Case(
      name: "Copy while idle ends at once",
      steps: [Step(.callFinished(nothing), [.watchChanges]), Step(.dismissAfterCall, [.end])], end: .dismissed),
    Case(
      name: "a signal interrupts the call and ends",
      steps: [Step(.signal(.terminate), [.interrupt, .end])], end: .interrupted(Signal.terminate.rawValue)),
    Case(
      name: "nothing after the end",
      steps: [
        Step(.dismiss, [.interrupt, .end]),
        Step(.action(.press("translate")), []),
        Step(.callFinished(view(scene(enabled: true))), []),
      ],
      end: .dismissed),
    Case(
      name: "a quick call is not shown as working",
      steps: [Step(.deadline(.now), at: .milliseconds(100), []), Step(.callFinished(nothing), [.watchChanges])]),
    Case(
      name: "a slow call is shown as working, and no longer when it returns",
      steps: [
        Step(.deadline(.now), at: .milliseconds(151), [.redraw]),
        Step(.callFinished(nothing), at: .milliseconds(400), [.redraw, .watchChanges]),
      ]),
    Case(
      name: "a spinner the front end draws moves at its frame interval",
      frameInterval: .milliseconds(100), first: scene(busy: true),
      steps: [
        Step(.callFinished(nothing), at: .milliseconds(10), [.watchChanges]),
        Step(.deadline(.now), at: .milliseconds(100), [.redraw]),
        Step(.deadline(.now), at: .milliseconds(150), []),
        Step(.deadline(.now), at: .milliseconds(200), [.redraw]),
      ]),
    Case(
      name: "progress shown past the limit without a change ends as hung",
      first: scene(busy: true),
      steps: [
        Step(.callFinished(nothing), [.watchChanges]),
        Step(.deadline(.now), at: .seconds(1), []),
        Step(.deadline(.now), at: .seconds(2), [.end]),
      ],
      end: .stillBusy),
    Case(
      name: "a change resets the limit",
      first: scene(busy: true),
      steps: [
        Step(.callFinished(nothing), [.watchChanges]),
        Step(.changeReady, at: .milliseconds(1500), [.start(.takeChange)]),
        Step(.callFinished(view(scene(field: "x", busy: true))), at: .milliseconds(1500), [.redraw, .start(.takeChange)]),
        Step(.callFinished(nothing), at: .milliseconds(1500), [.watchChanges]),
        Step(.deadline(.now), at: .milliseconds(2500), []),
      ]),
    Case(
      name: "Tab skips disabled controls and wraps",
      steps: [
        Step(.moveFocus(by: 1), [.redraw]),
        Step(.moveFocus(by: 1), [.redraw]),
      ],
      focus: "field"),
    Case(
      name: "Shift-Tab from the first control goes to the last enabled one",
      steps: [Step(.moveFocus(by: -1), [.redraw])], focus: "translate"),
    Case(
      name: "focus stays on a control that is still there after a new tree",
      steps: [
        Step(.moveFocus(by: 1), [.redraw]),
        Step(.callFinished(view(scene(enabled: true, extra: "more"))), [.redraw, .start(.takeChange)]),
      ],
      focus: "translate"),
    Case(
      name: "focus on a control that went moves to the first",
      first: scene(extra: "more"),
      steps: [
        Step(.moveFocus(by: 2), [.redraw]),
        Step(.callFinished(view(scene())), [.redraw, .start(.takeChange)]),
      ],
      focus: "field"),
    Case(
      name: "the toolkit's own focus moves are kept",
      steps: [Step(.focused("translate"), [])], focus: "translate"),
    Case(
      name: "Enter in a field the content does not take moves focus on",
      watches: false, begins: [.redraw],
      steps: [
        Step(.action(.submit("field")), [.start(.action(.submit("field")))]),
        Step(.callFinished(nothing), [.redraw]),
      ],
      focus: "translate"),
  ]

  @Test(arguments: cases)
  func followsItsRules(_ test: Case) {
    let start = ContinuousClock.now
    var controller = PopoverController(
      first: test.first, watchesChanges: test.watches, busyLimit: .seconds(2), frameInterval: test.frameInterval)
    #expect(controller.begin(at: start) == test.begins)
    for (index, step) in test.steps.enumerated() {
      let effects = controller.handle(step.event(), at: start + step.at)
      #expect(effects == step.effects, "step \(index + 1)")
    }
    switch (controller.ending, test.end) {
    case (nil, .goesOn), (.dismissed?, .dismissed), (.failed?, .failed), (.stillBusy?, .stillBusy): break
    case (.finished(let translation)?, .finished(let expected)): #expect(translation == expected)
    case (.interrupted(let signal)?, .interrupted(let expected)): #expect(signal.rawValue == expected)
    default: Issue.record("ended as \(String(describing: controller.ending)), not \(test.end)")
    }
    if case .some(let focus) = test.focus { #expect(controller.focus == focus) }
    if let queue = test.queue { #expect(controller.queue == queue) }
    for (id, text) in test.texts { #expect(controller.text(of: id) == text) }
  }

  @Test func asksForADeadlineOnlyWhenSomethingIsDue() {
    let start = ContinuousClock.now
    var controller = PopoverController(first: Self.scene(), busyLimit: .seconds(2))
    _ = controller.begin(at: start)
    #expect(controller.nextDeadline == start + PopoverController.workingDelay)
    _ = controller.handle(.callFinished(Self.nothing), at: start)
    #expect(controller.isWatching)
    #expect(controller.nextDeadline == nil, "an idle popover waits for events only")
  }

  @Test func typingGoesToTheFirstFieldWhenTheContentRedirectsIt() {
    var controller = PopoverController(first: Self.scene(), redirectsTyping: true, watchesChanges: false)
    _ = controller.begin(at: .now)
    #expect(controller.typingTarget == nil, "the field has the focus already")
    _ = controller.handle(.moveFocus(by: 1), at: .now)
    #expect(controller.typingTarget == "field")
    let plain = PopoverController(first: Self.scene(), watchesChanges: false)
    #expect(plain.typingTarget == nil)
  }
}
