/// The entry point of a translation provider, as Apple's
/// `TranslationUIProviderExtension`.
///
/// Write it exactly as on iOS:
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
/// On Linux the type is a composition of a base class, which supplies the
/// `required init()` Apple's protocol demands, and the protocol that declares
/// `body`; that is what lets the sample above compile without `final` and
/// without writing `init()`.
public typealias TranslationUIProviderExtension =
  TranslationUIProviderExtensionBase & TranslationUIProviderExtensionProtocol

/// The base class every provider's entry point inherits from.
open class TranslationUIProviderExtensionBase {
  /// Creates the extension; the host calls this once per provider process.
  public required init() {}
}

/// The requirements of a provider's entry point: the scene it shows.
public protocol TranslationUIProviderExtensionProtocol: AnyObject {
  /// The type of the extension's scene.
  associatedtype Body: TranslationUIProviderExtensionScene

  /// The content and behavior of the provider's interface.
  var body: Body { get }
}

extension TranslationUIProviderExtensionProtocol where Self: TranslationUIProviderExtensionBase {
  /// Registers the extension with the SDK; called through `@main` when the
  /// host loads the provider. A provider never calls it itself.
  public static func main() {
    ProviderRuntime.register(Self.self)
  }
}
