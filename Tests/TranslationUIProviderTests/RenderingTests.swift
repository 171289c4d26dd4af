import Testing

@testable import TranslationUIProvider
@testable import TranslationViewTree

/// The seed's view, as an author writes it (Apple's sample, lightly renamed).
private struct SampleView: View {
  @State var context: TranslationUIProviderContext
  @State var translated: String = ""

  init(context c: TranslationUIProviderContext) { context = c }

  var body: some View {
    VStack(alignment: .leading) {
      Text(context.inputText ?? "")
      Text(translated)
      Button(action: translate) { Label("Translate", systemImage: "globe") }
      Button(action: replaceText) { Text("Replace With Translation") }
        .disabled(!context.allowsReplacement)
    }
  }

  private func translate() {
    if let toTranslate = context.inputText, !toTranslate.characters.isEmpty {
      translated = String(toTranslate.characters.reversed())
    }
  }

  private func replaceText() { context.finish(replacingWithTranslation: AttributedString(translated)) }
}

/// A child view with its own state, re-created on every render of its parent.
private struct Counter: View {
  @State var count = 0
  var body: some View { Button("Count \(count)") { count += 1 } }
}

private struct Parent: View {
  @State var showsHeader = false
  @State var name = ""
  var body: some View {
    VStack(spacing: 2) {
      if showsHeader { Text("Header") }
      Counter()
      TextField("Name", text: $name)
      Text("Hello \(name)")
      Button("Toggle") { showsHeader.toggle() }
      HStack(alignment: .bottom) {
        Spacer()
        Divider()
        ProgressView("Loading")
        ProgressView(value: 3, total: 4)
      }
    }
  }
}

@MainActor @Suite struct RenderingTests {
  @Test func rendersAppleSampleAsAViewTree() {
    let session = SceneSession(rootView: SampleView(context: TestContext("Hallo, Welt!", allowsReplacement: false))) {}
    #expect(
      session.render().root
        == .vstack(
          alignment: "leading", spacing: nil,
          children: [
            .text("Hallo, Welt!"), .text(""),
            .button(id: "0.2", isEnabled: true, label: .label(title: "Translate", systemImage: "globe")),
            .button(id: "0.3", isEnabled: false, label: .text("Replace With Translation")),
          ]))
  }

  @Test func actionsChangeStateThatSurvivesRerendering() {
    let context = TestContext("Hallo, Welt!")
    let session = SceneSession(rootView: SampleView(context: context)) {}
    _ = session.render()
    #expect(session.performAction("0.2"))
    #expect(session.render().root.children[1] == .text("!tleW ,ollaH"))
    #expect(session.render().root.children[1] == .text("!tleW ,ollaH"))
    #expect(session.performAction("0.3"))
    #expect(context.finished == [AttributedString("!tleW ,ollaH")])
  }

  @Test func disabledButtonsCannotBePressed() {
    let context = TestContext("Hallo", allowsReplacement: false)
    let session = SceneSession(rootView: SampleView(context: context)) {}
    _ = session.render()
    #expect(!session.performAction("0.3"))
    #expect(!session.performAction("no-such-id"))
    #expect(context.finished.isEmpty)
  }

  @Test func childStateKeepsItsIdentityWhenSiblingsAppear() throws {
    let session = SceneSession(rootView: Parent()) {}
    var tree = session.render()
    let counter = try #require(tree.buttons.first { $0.label.hasPrefix("Count") })
    #expect(session.performAction(counter.id))
    #expect(session.performAction(try #require(tree.buttons.first { $0.label == "Toggle" }).id))
    tree = session.render()
    #expect(tree.root.children.first == .text("Header"))
    #expect(tree.buttons.contains { $0.label == "Count 1" })
  }

  @Test func textFieldsEditTheirBinding() throws {
    let session = SceneSession(rootView: Parent()) {}
    let tree = session.render()
    var fieldID: String?
    tree.root.forEach { if case .textField(let id, "Name", "", true) = $0 { fieldID = id } }
    #expect(session.setText(try #require(fieldID), to: "Ana"))
    #expect(session.render().root.visibleText.contains("Hello Ana"))
    #expect(!session.setText("0.99", to: "x"))
  }

  @Test func stacksAndIndicatorsKeepTheirAttributes() throws {
    let tree = SceneSession(rootView: Parent()) {}.render()
    guard case .vstack(_, 2, let children) = tree.root else {
      Issue.record("root is \(tree.root)")
      return
    }
    #expect(
      children.last
        == .hstack(
          alignment: "bottom", spacing: nil,
          children: [.spacer, .divider, .progress(label: "Loading", fraction: nil), .progress(label: nil, fraction: 0.75)]))
  }

  @Test func stateChangesFromOutsideAnActionAskForARender() {
    let requests = Counted()
    let session = SceneSession(rootView: Counter()) { requests.increment() }
    let id = session.render().buttons[0].id
    #expect(session.performAction(id))
    #expect(requests.value == 1)
  }
}

/// A thread-safe counter for `@Sendable` callbacks.
final class Counted: @unchecked Sendable {
  private var count = 0
  func increment() { count += 1 }
  var value: Int { count }
}
