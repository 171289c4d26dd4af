/// A reference to a value the caller owns, read and written through two
/// closures: the counterpart of SwiftUI's `Binding`, for
/// `translationPresentation(isPresented:…)`, which sets it to false when the
/// popover closes, as SwiftUI does.
///
/// Not `Sendable`: a binding is used where it was made (the functions that
/// take one run on their caller's actor).
@propertyWrapper
public struct Binding<Value> {
  private let get: () -> Value
  private let set: (Value) -> Void

  /// A binding that reads with `get` and writes with `set`.
  public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
    self.get = get
    self.set = set
  }

  /// A binding to a value that never changes: writes are dropped.
  public static func constant(_ value: Value) -> Binding<Value> {
    Binding(get: { value }, set: { _ in })
  }

  public var wrappedValue: Value {
    get { get() }
    nonmutating set { set(newValue) }
  }

  public var projectedValue: Binding<Value> { self }
}
