import Synchronization
import Testing
import TranslationViewTree

@testable import TranslationUIProvider

/// Settings in an iOS scene: a list of sections, a toggle, a picker, a
/// navigation stack with a toolbar, focus, and the look-only modifiers that
/// come with them.
private struct SettingsView: View {
  @State private var loud = false
  @State private var language = "es"
  @FocusState private var focused: Bool

  var body: some View {
    NavigationStack {
      List {
        Section("Options") {
          Toggle("Loud", isOn: $loud)
          Picker("Language", selection: $language) {
            Text("Spanish").tag("es")
            Text("German").tag("de")
          }
          .pickerStyle(.segmented)
        }
        Text("Hello, ") + Text("world")
        Text("Weighty").font(.body.weight(.semibold).monospaced()).background(.yellow).monospaced()
        Text("Chosen: \(language)\(loud ? "!" : "")").fontWeight(.regular).focused($focused)
      }
      .listStyle(.insetGrouped)
      .navigationTitle("Settings")
      .toolbar {
        ToolbarItem(placement: .cancellationAction) { Button("Cancel", role: .cancel) {} }
      }
    }
  }
}

/// A scene whose `.task` awaits, then enables its button.
private struct SettlingView: View {
  let gate: Gate
  @State private var ready = false

  var body: some View {
    Button("Replace") {}
      .disabled(!ready)
      .task {
        await gate.wait()
        ready = true
      }
  }
}

/// Opens once `open()` is called.
private final class Gate: Sendable {
  private let opened = Mutex(false)
  func open() { opened.withLock { $0 = true } }
  func wait() async { while !opened.withLock({ $0 }) { await Task.yield() } }
}

@MainActor @Suite struct IOSSurfaceTests {
  @Test func listsSectionsTogglesPickersAndToolbarsAreDrawnAndWork() {
    let scene = SceneSession(rootView: SettingsView()) {}
    var tree = scene.render()
    #expect(tree.buttons.map(\.label) == ["[ ] Loud", "(•) Spanish", "( ) German", "Cancel"])
    #expect(tree.root.visibleText.contains("Options"))
    #expect(tree.root.visibleText.contains("Hello, world"))
    #expect(tree.root.visibleText.contains("Chosen: es"))
    let toggle = tree.buttons[0].id
    let german = tree.buttons[2].id
    #expect(scene.performAction(toggle))
    #expect(scene.performAction(german))
    tree = scene.render()
    #expect(tree.buttons.map(\.label) == ["[x] Loud", "( ) Spanish", "(•) German", "Cancel"])
    #expect(tree.root.visibleText.contains("Chosen: de!"))
  }

  @Test func aWeightOfSemiboldOrMoreIsBold() {
    #expect(Font.body.weight(.semibold) == Font.body.bold())
    #expect(Font.body.weight(.regular) == Font.body)
  }

  @Test func aSceneIsSettlingWhileItsTaskRuns() async {
    let gate = Gate()
    let scene = SceneSession(rootView: SettlingView(gate: gate)) {}
    let first = scene.render()
    #expect(first.isSettling)
    #expect(first.buttons.map(\.isEnabled) == [false])
    gate.open()
    var tree = first
    for _ in 0..<1000 where tree.isSettling {
      await Task.yield()
      tree = scene.render()
    }
    #expect(!tree.isSettling)
    #expect(tree.buttons.map(\.isEnabled) == [true])
  }
}
