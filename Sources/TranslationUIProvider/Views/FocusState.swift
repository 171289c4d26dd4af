/// Which control has keyboard focus, as SwiftUI's `@FocusState`: kept as
/// state (it survives re-renders, and setting it redraws the scene); hosts
/// move focus with their own keys, so `.focused(_:)` is look-only.
@propertyWrapper
public struct FocusState<Value: Hashable> {
  let state: State<Value>

  /// A Boolean focus state, false at first.
  public init() where Value == Bool { state = State(wrappedValue: false) }

  /// A focus state over values, nil at first.
  public init<T: Hashable>() where Value == T? { state = State(wrappedValue: nil) }

  public var wrappedValue: Value {
    get { state.wrappedValue }
    nonmutating set { state.wrappedValue = newValue }
  }

  public var projectedValue: Binding { Binding(value: state.projectedValue) }

  /// What `$focus` gives `.focused(_:)`.
  public struct Binding {
    let value: TranslationUIProvider.Binding<Value>
    public var wrappedValue: Value {
      get { value.wrappedValue }
      nonmutating set { value.wrappedValue = newValue }
    }
  }
}

extension FocusState: StateProperty {
  func attach(to graph: StateGraph, key: String) { state.attach(to: graph, key: key) }
}
