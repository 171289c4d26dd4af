import Synchronization
import Testing

@testable import TranslationUIProvider
@testable import TranslationViewTree

/// A model as iOS code writes one.
@MainActor @Observable private final class Words {
  var items: [String] = []
}

private struct Item: Identifiable {
  let id: Int
  let word: String
}

/// Records what the lifecycle modifiers ran.
@MainActor private final class Journal {
  var lines: [String] = []
}

private struct LifecycleView: View {
  let journal: Journal
  @State var showsDetail = true

  var body: some View {
    VStack {
      if showsDetail {
        Text("Detail")
          .onAppear { journal.lines.append("appear") }
          .onDisappear { journal.lines.append("disappear") }
      }
      Button("Hide") { showsDetail = false }
    }
  }
}

private struct StyledView: View {
  var body: some View {
    VStack {
      Text("Title").font(.headline).padding(.horizontal, 16)
      Text("Note").foregroundStyle(.secondary).bold()
      Group {
        Text("a")
        Image(systemName: "globe")
      }
      .padding(8)
      .frame(maxWidth: .infinity)
      Text("looks only").multilineTextAlignment(.center).lineLimit(2).opacity(0.5)
    }
  }
}

private struct ListView: View {
  let items: [Item]
  var body: some View {
    ScrollView {
      ForEach(items) { item in Text(item.word) }
      ForEach(0..<2) { index in Text("#\(index)") }
    }
  }
}

private struct ModelView: View {
  @State var words = Words()
  var body: some View {
    VStack {
      ForEach(words.items, id: \.self) { Text($0) }
      Button("Add") { words.items.append("more") }
    }
  }
}

private struct BindableView: View {
  @Bindable var words: Words
  var body: some View {
    TextField("First", text: $words.items.first)
  }
}

extension Array where Element == String {
  fileprivate var first: String {
    get { self.isEmpty ? "" : self[0] }
    set { if isEmpty { append(newValue) } else { self[0] = newValue } }
  }
}

private struct EnvironmentView: View {
  @Environment(\.dismiss) private var dismiss
  @Environment(\.locale) private var locale
  @Environment(\.colorScheme) private var colorScheme

  var body: some View {
    VStack {
      Text(locale.identifier)
      Text(colorScheme == .light ? "light" : "dark")
      Button("Close") { dismiss() }
    }
  }
}

/// Counts the scene's requests to be drawn again, from any thread.
private final class Changes: Sendable {
  private let count = Mutex(0)
  var value: Int { count.withLock { $0 } }
  func add() { count.withLock { $0 += 1 } }
}

@MainActor @Suite struct ViewLayerTests {
  private func session(_ view: some View, context: TestContext? = nil, changes: Changes? = nil) -> SceneSession {
    SceneSession(rootView: view, context: context) { changes?.add() }
  }

  @Test func onAppearAndOnDisappearRunOnceEach() {
    let journal = Journal()
    let scene = session(LifecycleView(journal: journal))
    _ = scene.render()
    _ = scene.render()
    #expect(journal.lines == ["appear"])
    #expect(scene.performAction("0.1"))
    _ = scene.render()
    #expect(journal.lines == ["appear", "disappear"])
  }

  @Test func closingTheSceneMakesEverythingDisappear() {
    let journal = Journal()
    let scene = session(LifecycleView(journal: journal))
    _ = scene.render()
    scene.close()
    #expect(journal.lines == ["appear", "disappear"])
  }

  @Test func looksBecomeStylesAndLookOnlyModifiersChangeNothing() {
    let root = session(StyledView()).render().root
    var title = ViewStyle()
    title.font = "headline"
    title.padding = .init(top: 0, leading: 16, bottom: 0, trailing: 16)
    var note = ViewStyle()
    note.foregroundStyle = "secondary"
    note.bold = true
    var group = ViewStyle()
    group.padding = .init(top: 8, leading: 8, bottom: 8, trailing: 8)
    group.maxWidth = .infinity
    let expected: [ViewNode] = [
      .styled(title, .text("Title")), .styled(note, .text("Note")), .styled(group, .text("a")),
      .styled(group, .image(systemName: "globe")), .text("looks only"),
    ]
    #expect(root.children == expected)
  }

  @Test func forEachAndScrollViewListTheirContent() {
    let root = session(ListView(items: [Item(id: 7, word: "uno"), Item(id: 9, word: "dos")])).render().root
    let expected: ViewNode = .scroll(children: [.text("uno"), .text("dos"), .text("#0"), .text("#1")])
    #expect(root == expected)
  }

  @Test func observableModelsRedrawWhenTheyChange() {
    let changes = Changes()
    let scene = session(ModelView(), changes: changes)
    #expect(scene.render().buttons.map(\.label) == ["Add"])
    let before = changes.value
    #expect(scene.performAction("0.1"))
    #expect(changes.value > before)
    #expect(scene.render().root.children.first == .text("more"))
  }

  @Test func bindableGivesBindingsToAModel() {
    let words = Words()
    let scene = session(BindableView(words: words))
    _ = scene.render()
    #expect(scene.setText("0", to: "hola"))
    #expect(words.items == ["hola"])
  }

  @Test func environmentGivesDismissLocaleAndColorScheme() {
    let context = TestContext("x", targetLanguage: "es")
    let scene = session(EnvironmentView(), context: context)
    let tree = scene.render()
    let expected: [ViewNode] = [.text("es"), .text("light")]
    #expect(Array(tree.root.children.prefix(2)) == expected)
    #expect(scene.performAction("0.2"))
    #expect(context.finished == [nil])
  }

  @Test func tasksRunOnTheMainActorAfterTheSceneAppears() async {
    let words = Words()
    let scene = session(
      Text("x").task {
        words.items.append("from a task")
      })
    _ = scene.render()
    for _ in 0..<100 where words.items.isEmpty { await Task.yield() }
    #expect(words.items == ["from a task"])
  }
}

/// Entry points as authors declare them; the SDK creates each without an `init()` it could call.
private struct StatelessEntry: TranslationUIProviderExtension {
  var body: some TranslationUIProviderExtensionScene { TranslationUIProviderSelectedTextScene { _ in Text("s") } }
}

private class EmptyClassEntry: TranslationUIProviderExtension {
  var body: some TranslationUIProviderExtensionScene { TranslationUIProviderSelectedTextScene { _ in Text("c") } }
}

private class BaseEntry: TranslationUIProviderExtensionBase, TranslationUIProviderExtension {
  let greeting = "hola"
  var body: some TranslationUIProviderExtensionScene { TranslationUIProviderSelectedTextScene { _ in Text("b") } }
}

private struct StatefulEntry: TranslationUIProviderExtension {
  let greeting = "hola"
  var body: some TranslationUIProviderExtensionScene { TranslationUIProviderSelectedTextScene { _ in Text("x") } }
}

@Suite struct EntryPointTests {
  @Test func structsClassesAndSubclassesOfTheBaseAreCreated() throws {
    _ = try EntryPointFactory.make(StatelessEntry.self)
    _ = try EntryPointFactory.make(EmptyClassEntry.self)
    #expect(try EntryPointFactory.make(BaseEntry.self).greeting == "hola")
  }

  @Test func anEntryPointWithStoredPropertiesIsRefusedWithWhatToDo() {
    #expect {
      try EntryPointFactory.make(StatefulEntry.self)
    } throws: { error in
      "\(error)".contains("is a struct with stored properties") && "\(error)".contains("TranslationProviderEntryPoint")
    }
  }
}
