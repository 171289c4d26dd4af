/// Bindings to the properties of an `@Observable` model, as SwiftUI's
/// `@Bindable`: `$model.text` is a `Binding<String>` for a `TextField`.
@dynamicMemberLookup
@propertyWrapper
public struct Bindable<Value: AnyObject & Observable>: @unchecked Sendable {
  public var wrappedValue: Value

  public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
  public init(_ wrappedValue: Value) { self.wrappedValue = wrappedValue }

  public var projectedValue: Bindable<Value> { self }

  /// A binding to the model's property at `keyPath`.
  public subscript<Member>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Member>) -> Binding<Member> {
    let model = wrappedValue
    return Binding(get: { model[keyPath: keyPath] }, set: { model[keyPath: keyPath] = $0 })
  }
}
