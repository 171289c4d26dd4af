import TranslationViewTree

/// One walk over a scene's views that turns them into view-tree nodes and
/// collects the actions and fields the host may address by id.
@MainActor final class RenderPass {
  let graph: StateGraph
  /// True while drawing inside `.disabled(true)`.
  var isDisabled = false
  /// What `@Environment` reads while drawing this part of the tree.
  var environment: EnvironmentValues
  /// `.onAppear`, `.onDisappear` and `.task` of the views drawn, by path.
  var lifecycle: [String: Lifecycle] = [:]
  /// Button actions by control id; disabled buttons have none.
  var actions: [String: () -> Void] = [:]
  /// Text-field bindings by control id; disabled fields have none.
  var fields: [String: Binding<String>] = [:]
  /// The `Picker` whose options are being drawn, if any.
  var picker: PickerContext?

  /// What a picker's options need: the selection, and how to change it.
  struct PickerContext {
    let selected: AnyHashable
    let select: (AnyHashable) -> Void
  }

  init(graph: StateGraph, environment: EnvironmentValues) {
    self.graph = graph
    self.environment = environment
  }

  /// The nodes for `view` at `path`: a primitive draws itself; a composite
  /// view gets its `@State` re-attached and is drawn through its body.
  func makeNodes(for view: any View, at path: String) -> [ViewNode] {
    if let primitive = view as? any PrimitiveView {
      return primitive.makeNodes(in: self, at: path)
    }
    let typeName = String(reflecting: type(of: view))
    for (index, child) in Mirror(reflecting: view).children.enumerated() {
      if let state = child.value as? any StateProperty {
        state.attach(to: graph, key: "\(path)/\(typeName)/\(child.label ?? String(index))")
      } else if let environment = child.value as? any EnvironmentProperty {
        environment.attach(self.environment)
      }
    }
    return makeNodes(for: Self.body(of: view), at: path)
  }

  private static func body<V: View>(of view: V) -> any View { view.body }
}
