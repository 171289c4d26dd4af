import TranslationViewTree

/// A live selected-text scene: its root view, its state and the controls of
/// its last rendering.
///
/// The host calls it from one thread at a time; state may change from any
/// thread, which asks the host (through `onChange`) to render again.
final class SceneSession {
  private let rootView: any View
  private let graph: StateGraph
  private var actions: [String: () -> Void] = [:]
  private var fields: [String: Binding<String>] = [:]

  init(rootView: any View, onChange: @escaping @Sendable () -> Void) {
    self.rootView = rootView
    self.graph = StateGraph(onChange: onChange)
  }

  /// Draws the scene and remembers its controls for later actions.
  func render() -> ViewTree {
    let pass = RenderPass(graph: graph)
    let nodes = pass.makeNodes(for: rootView, at: "0")
    graph.collectGarbage()
    actions = pass.actions
    fields = pass.fields
    let root = nodes.count == 1 ? nodes[0] : .vstack(alignment: "center", spacing: nil, children: nodes)
    return ViewTree(root: root)
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
