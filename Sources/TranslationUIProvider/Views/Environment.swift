import TranslationViewTree

/// Values a view reads from where it is drawn, as SwiftUI's `EnvironmentValues`.
public struct EnvironmentValues: @unchecked Sendable {
  private var custom: [ObjectIdentifier: Any] = [:]

  public init() {}

  /// Closes the scene without a replacement (`finish(translation: nil)`).
  public var dismiss = DismissAction {}
  /// The locale to present in: the caller's target language when it gave one, else the process's.
  public var locale = Locale.current
  /// Light or dark. Hosts do not report theirs yet, so it is SwiftUI's default, `.light`.
  public var colorScheme = ColorScheme.light

  /// A value of your own, declared with an `EnvironmentKey`.
  public subscript<Key: EnvironmentKey>(key: Key.Type) -> Key.Value {
    get { custom[ObjectIdentifier(key)] as? Key.Value ?? Key.defaultValue }
    set { custom[ObjectIdentifier(key)] = newValue }
  }
}

/// A key for a value of your own in `EnvironmentValues`, as SwiftUI's.
public protocol EnvironmentKey {
  associatedtype Value
  static var defaultValue: Value { get }
}

/// Light or dark appearance, as SwiftUI's `ColorScheme`.
public enum ColorScheme: Hashable, Sendable, CaseIterable {
  case light, dark
}

/// The action `@Environment(\.dismiss)` gives: call it to close the scene.
public struct DismissAction: @unchecked Sendable {
  private let action: () -> Void
  init(_ action: @escaping () -> Void) { self.action = action }
  @MainActor public func callAsFunction() { action() }
}

/// Reads a value of the environment the view is drawn in, as SwiftUI's `@Environment`.
@propertyWrapper
public struct Environment<Value>: @unchecked Sendable {
  private let keyPath: KeyPath<EnvironmentValues, Value>
  private let box = EnvironmentBox()

  public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { self.keyPath = keyPath }

  /// The value where the view was last drawn (the defaults before that).
  public var wrappedValue: Value { (box.values ?? EnvironmentValues())[keyPath: keyPath] }
}

/// Where an `Environment` finds the values of the pass that drew its view.
final class EnvironmentBox: @unchecked Sendable {
  var values: EnvironmentValues?
}

/// Type-erased access to an `Environment` found by reflection.
protocol EnvironmentProperty {
  func attach(_ values: EnvironmentValues)
}

extension Environment: EnvironmentProperty {
  func attach(_ values: EnvironmentValues) { box.values = values }
}

extension View {
  /// Sets an environment value for this view and the views inside it.
  public func environment<Value>(_ keyPath: WritableKeyPath<EnvironmentValues, Value>, _ value: Value) -> some View {
    EnvironmentModifierView(content: self) { $0[keyPath: keyPath] = value }
  }
}

struct EnvironmentModifierView<Content: View>: View, PrimitiveView {
  let content: Content
  let change: (inout EnvironmentValues) -> Void

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] {
    let outer = pass.environment
    change(&pass.environment)
    defer { pass.environment = outer }
    return pass.makeNodes(for: content, at: path)
  }
}
