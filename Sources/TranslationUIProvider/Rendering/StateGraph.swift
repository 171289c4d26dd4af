/// The state of one scene's views, keyed by where each view sits in the tree,
/// so that `@State` survives the re-creation of view values on every render.
final class StateGraph {
  private var storages: [String: StateStorageBase] = [:]
  private var seen: Set<String> = []
  private let onChange: @Sendable () -> Void

  /// `onChange` runs whenever any attached state changes, on the changing thread.
  init(onChange: @escaping @Sendable () -> Void) { self.onChange = onChange }

  /// The storage kept under `key`, or `fresh` (now kept) if there is none yet
  /// or the kept one holds another type of value.
  func storage<Value>(for key: String, else fresh: StateStorage<Value>) -> StateStorage<Value> {
    seen.insert(key)
    if let kept = storages[key] as? StateStorage<Value> { return kept }
    fresh.observe(onChange)
    storages[key] = fresh
    return fresh
  }

  /// Forgets the state of views that were not drawn since the last call.
  func collectGarbage() {
    storages = storages.filter { seen.contains($0.key) }
    seen.removeAll(keepingCapacity: true)
  }
}
