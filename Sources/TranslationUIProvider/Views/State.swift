import Synchronization

/// A value a view owns that survives re-renders, as SwiftUI's `@State`.
///
/// Setting it asks the host to draw the scene again, from any thread.
@propertyWrapper
public struct State<Value> {
  let location: StateLocation<Value>

  /// Creates the state with its initial value.
  public init(wrappedValue value: Value) {
    location = StateLocation(StateStorage(value))
  }

  /// Creates the state with its initial value.
  public init(initialValue value: Value) {
    self.init(wrappedValue: value)
  }

  /// The current value.
  public var wrappedValue: Value {
    get { location.storage.value }
    nonmutating set { location.storage.value = newValue }
  }

  /// A binding to the value, for controls such as `TextField`.
  public var projectedValue: Binding<Value> {
    let location = location
    return Binding(get: { location.storage.value }, set: { location.storage.value = $0 })
  }
}

/// Where a `State` finds its storage; re-pointed by the renderer so that a
/// freshly created view finds the storage of the view it replaces.
final class StateLocation<Value> {
  var storage: StateStorage<Value>
  init(_ storage: StateStorage<Value>) { self.storage = storage }
}

/// Type-erased access to a `State` found by reflection.
protocol StateProperty {
  func attach(to graph: StateGraph, key: String)
}

extension State: StateProperty {
  func attach(to graph: StateGraph, key: String) {
    let kept = graph.storage(for: key, else: location.storage)
    if kept !== location.storage { location.storage = kept }
  }
}

/// Storage of one state value; thread-safe, and tells its graph when it changes.
final class StateStorage<Value>: StateStorageBase, @unchecked Sendable {
  private let lock = Mutex(())
  private var current: Value

  init(_ value: Value) { current = value }

  var value: Value {
    get { lock.withLock { _ in current } }
    set {
      lock.withLock { _ in current = newValue }
      didChange()
    }
  }
}

/// The part of `StateStorage` the graph sees: who to tell about changes.
class StateStorageBase {
  private let observer = Mutex<(@Sendable () -> Void)?>(nil)

  func observe(_ onChange: @escaping @Sendable () -> Void) {
    observer.withLock { $0 = onChange }
  }

  func didChange() {
    observer.withLock { $0 }?()
  }
}
