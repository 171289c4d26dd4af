/// A reference to a value owned elsewhere, as SwiftUI's `Binding`.
///
/// A binding from `@State` (`$value`) may be used from any thread: the state's
/// storage is locked, and setting it asks the host to draw again. That is how
/// background work reports back to a scene.
@propertyWrapper
@dynamicMemberLookup
public struct Binding<Value>: @unchecked Sendable {
  private let getValue: () -> Value
  private let setValue: (Value) -> Void

  /// Creates a binding from a getter and a setter.
  public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
    getValue = get
    setValue = set
  }

  /// A binding to a value that never changes.
  public static func constant(_ value: Value) -> Binding<Value> {
    Binding(get: { value }, set: { _ in })
  }

  /// The referenced value.
  public var wrappedValue: Value {
    get { getValue() }
    nonmutating set { setValue(newValue) }
  }

  /// The binding itself.
  public var projectedValue: Binding<Value> { self }

  /// A binding to a property of the value, as SwiftUI's (`$model.name`).
  public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
    let parent = self
    return Binding<Subject>(
      get: { parent.wrappedValue[keyPath: keyPath] },
      set: { newValue in
        var value = parent.wrappedValue
        value[keyPath: keyPath] = newValue
        parent.wrappedValue = value
      })
  }
}
