/// What a view asked to run when it appears and disappears (`.onAppear`,
/// `.onDisappear`, `.task`), kept by its path in the tree.
@MainActor struct Lifecycle {
  var onAppear: [() -> Void] = []
  var onDisappear: [() -> Void] = []
  var tasks: [@MainActor @Sendable () async -> Void] = []
}
