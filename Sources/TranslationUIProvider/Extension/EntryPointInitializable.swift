/// Not for authors: what the `TranslationProviderEntryPoint` build plugin
/// conforms a provider's `@main` type to, in a file it adds to the module.
///
/// Its one function calls the type's `init()`. Without that call, an
/// optimized build deletes the initializer of a class (or struct) that only
/// the SDK creates, since nothing in the module calls it, and the default
/// values of its stored properties go with it; with it, the SDK creates
/// the entry point as iOS does, whatever it stores.
// swift-format-ignore: AllPublicDeclarationsHaveDocumentation
public protocol _EntryPointInitializable {
  /// A new instance, made by the type's own `init()`.
  @MainActor static func _makeEntryPoint() -> Any
}
