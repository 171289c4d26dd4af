/// The entry point of a translation provider, as Apple's
/// `TranslationUIProviderExtension`.
///
/// Write it exactly as on iOS, as a class or as a struct:
///
/// ```swift
/// @main
/// class MyTranslationExtension: TranslationUIProviderExtension {
///     var body: some TranslationUIProviderExtensionScene {
///         TranslationUIProviderSelectedTextScene { context in
///             MyTranslationView(context: context)
///         }
///     }
/// }
/// ```
///
/// Apple's protocol requires `init()`, which a non-final class without
/// `required init()` (as in Apple's own sample) cannot satisfy; so here the
/// protocol does not require it, and the SDK creates the entry point the way
/// its type allows (`EntryPointFactory`): a class that inherits
/// `TranslationUIProviderExtensionBase` through its `required init()`, any
/// other class or struct without stored properties directly. An entry point
/// with stored properties inherits the base class, or keeps its state in
/// static properties or in its scene's models.
public protocol TranslationUIProviderExtension {
  /// The type of the extension's scene.
  associatedtype Body: TranslationUIProviderExtensionScene

  /// The content and behavior of the provider's interface.
  @MainActor var body: Body { get }
}

/// The requirements of a provider's entry point, under the name earlier
/// versions of the SDK gave them.
@available(*, deprecated, renamed: "TranslationUIProviderExtension")
public typealias TranslationUIProviderExtensionProtocol = TranslationUIProviderExtension

/// A base class for an entry point that keeps state in stored properties:
/// its `required init()` is how the SDK creates it.
open class TranslationUIProviderExtensionBase {
  /// Creates the extension; the host calls this once per provider process.
  public required init() {}
}

extension TranslationUIProviderExtension {
  /// Registers the extension with the SDK; called through `@main` when the
  /// host loads the provider. A provider never calls it itself.
  public static func main() {
    ProviderRuntime.register(Self.self)
  }
}
