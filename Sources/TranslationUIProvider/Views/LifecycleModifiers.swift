import TranslationViewTree

extension View {
  /// Runs `action` when the view appears: once, after the first rendering
  /// that shows it, as SwiftUI's `.onAppear`. The place to start work,
  /// rather than a view's `init` (which runs on every rendering).
  public func onAppear(perform action: (() -> Void)? = nil) -> some View {
    LifecycleView(content: self) { if let action { $0.onAppear.append(action) } }
  }

  /// Runs `action` when the view stops being shown, or its scene closes.
  public func onDisappear(perform action: (() -> Void)? = nil) -> some View {
    LifecycleView(content: self) { if let action { $0.onDisappear.append(action) } }
  }

  /// Starts `action` on the main actor when the view appears and cancels it
  /// when the view disappears, as SwiftUI's `.task`. (In a runner the main
  /// actor runs between the host's calls; an `await` off it, such as a
  /// background translation, does not hold up the scene.)
  public func task(
    priority: TaskPriority = .userInitiated, _ action: @escaping @MainActor @Sendable () async -> Void
  ) -> some View {
    LifecycleView(content: self) { $0.tasks.append(action) }
  }
}

struct LifecycleView<Content: View>: View, PrimitiveView {
  let content: Content
  let add: (inout Lifecycle) -> Void

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] {
    add(&pass.lifecycle[path, default: Lifecycle()])
    return pass.makeNodes(for: content, at: path)
  }
}
