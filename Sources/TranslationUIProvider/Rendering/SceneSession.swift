import Observation
import TranslationViewTree

/// A live selected-text scene: its root view, its state and the controls of
/// its last rendering.
///
/// It lives on the main actor, as SwiftUI's views do; state and observed
/// models may change from any thread, which asks the host (through
/// `onChange`) to render again. Views that appear get their `.onAppear` and
/// `.task` run once, views that disappear (or the scene closing) their
/// `.onDisappear`, and their tasks are cancelled, as in SwiftUI.
@MainActor final class SceneSession {
  private let rootView: any View
  private let graph: StateGraph
  private let environment: EnvironmentValues
  private let onChange: @Sendable () -> Void
  private var actions: [String: () -> Void] = [:]
  private var fields: [String: Binding<String>] = [:]
  /// The views on screen with lifecycle modifiers, and the tasks they started.
  private var appeared: [String: Lifecycle] = [:]
  private var tasks: [String: [Task<Void, Never>]] = [:]
  /// How many of those tasks have not returned yet: while any runs, the
  /// scene is settling, and its end asks for a rendering that says it no longer is.
  private var runningTasks = 0

  init(rootView: any View, context: (any TranslationUIProviderContext)? = nil, onChange: @escaping @Sendable () -> Void) {
    self.rootView = rootView
    self.onChange = onChange
    self.graph = StateGraph(onChange: onChange)
    var environment = EnvironmentValues()
    if let context {
      environment.dismiss = DismissAction { [weak context] in context?.finish(translation: nil) }
      if let target = context.targetLanguage { environment.locale = Locale(identifier: target) }
    }
    self.environment = environment
  }

  /// Draws the scene and remembers its controls for later actions; runs the
  /// lifecycle of views that appeared or disappeared since the last time.
  func render() -> ViewTree {
    var tree = draw()
    let tasksBefore = runningTasks
    if updateLifecycle() || runningTasks != tasksBefore {
      // `.onAppear` changed what is shown, or `.task` started: draw what
      // changed (and that the scene is settling), once.
      tree = draw()
      _ = updateLifecycle()
    }
    return tree
  }

  private func draw() -> ViewTree {
    let pass = RenderPass(graph: graph, environment: environment)
    let rootView = rootView
    let nodes = Self.tracking(MainThread.unchecked { pass.makeNodes(for: rootView, at: "0") }, onChange: onChange)
    graph.collectGarbage()
    actions = pass.actions
    fields = pass.fields
    pendingLifecycle = pass.lifecycle
    let root = nodes.count == 1 ? nodes[0] : .vstack(alignment: "center", spacing: nil, children: nodes)
    return ViewTree(root: root, settling: runningTasks > 0)
  }

  private var pendingLifecycle: [String: Lifecycle] = [:]

  /// Runs `draw`, tracking the `@Observable` properties it reads: a change
  /// to one (from any thread) asks for a new rendering. `draw` is handed
  /// over as a plain closure: a main-actor closure passed to Observation
  /// would check at run time that it runs on the main actor, and under
  /// `--in-process` the host's thread is not the main thread.
  nonisolated private static func tracking(
    _ draw: () -> [ViewNode], onChange: @escaping @Sendable () -> Void
  ) -> [ViewNode] {
    withObservationTracking(draw, onChange: onChange)
  }

  /// Runs appear and disappear actions; true when anything appeared.
  private func updateLifecycle() -> Bool {
    let current = pendingLifecycle
    for (path, gone) in appeared where current[path] == nil { disappear(path, gone) }
    var anyAppeared = false
    for (path, lifecycle) in current.sorted(by: { $0.key < $1.key }) where appeared[path] == nil {
      appeared[path] = lifecycle
      anyAppeared = anyAppeared || !lifecycle.onAppear.isEmpty
      lifecycle.onAppear.forEach { $0() }
      tasks[path] = lifecycle.tasks.map { action in
        runningTasks += 1
        return Task { @MainActor [weak self] in
          await action()
          self?.taskEnded()
        }
      }
    }
    return anyAppeared
  }

  /// A `.task` returned (or ended, cancelled): once none runs, the next
  /// rendering says the scene has settled.
  private func taskEnded() {
    runningTasks -= 1
    if runningTasks == 0 { onChange() }
  }

  private func disappear(_ path: String, _ lifecycle: Lifecycle) {
    appeared[path] = nil
    tasks.removeValue(forKey: path)?.forEach { $0.cancel() }
    lifecycle.onDisappear.forEach { $0() }
  }

  /// The scene is being destroyed: everything on screen disappears.
  func close() {
    for (path, lifecycle) in appeared { disappear(path, lifecycle) }
  }

  /// Runs the action of the enabled button `id` from the last rendering.
  /// Returns false if there is no such button.
  func performAction(_ id: String) -> Bool {
    guard let action = actions[id] else { return false }
    action()
    return true
  }

  /// Sets the enabled text field `id` from the last rendering to `value`.
  /// Returns false if there is no such field.
  func setText(_ id: String, to value: String) -> Bool {
    guard let field = fields[id] else { return false }
    field.wrappedValue = value
    return true
  }
}
