import CEntryPointCall
import Glibc

/// Creates a provider's entry point from its type alone, since
/// `TranslationUIProviderExtension` cannot require `init()` (see there).
enum EntryPointFactory {
  /// Why an entry point could not be created; the message says what to change.
  struct Refusal: Error, CustomStringConvertible {
    var description: String
  }

  static func make<Extension: TranslationUIProviderExtension>(_ type: Extension.Type) throws(Refusal) -> Extension {
    // Built with the TranslationProviderEntryPoint plugin: the type's own init(), called in its module.
    if let initializable = type as? any _EntryPointInitializable.Type,
      let made = MainThread.run({ initializable._makeEntryPoint() }) as? Extension
    {
      return made
    }
    // A subclass of the base class: its required initializer, dynamically dispatched.
    if let base = type as? TranslationUIProviderExtensionBase.Type, let made = base.init() as? Extension {
      return made
    }
    if let classType = type as? AnyClass {
      // An iOS class entry point: its init(), which iOS requires it to have.
      let made = ClassInitializer.makeInstance(of: classType) ?? ClassMetadata.makeEmptyInstance(of: classType)
      guard let made = made as? Extension else {
        throw Refusal(description: classMessage(type))
      }
      return made
    }
    // A struct or enum without stored properties has no bytes to initialize.
    guard MemoryLayout<Extension>.size == 0 else { throw Refusal(description: structMessage(type)) }
    return unsafeBitCast((), to: Extension.self)
  }

  private static func structMessage(_ type: Any.Type) -> String {
    "the entry point '\(type)' is a struct with stored properties, so the SDK cannot create it without an initializer "
      + "it can call: add the SDK's plugin to the target, "
      + "plugins: [.plugin(name: \"TranslationProviderEntryPoint\", package: \"translation-host\")], which lets it call "
      + "init(), or keep its state in static properties or in its scene's views and models"
  }

  private static func classMessage(_ type: Any.Type) -> String {
    "the SDK cannot create the entry point class '\(type)': it calls the class's init(), and found none "
      + "(a generic or private class, an init() that takes arguments, a shared object whose symbol table was stripped, "
      + "or an optimized build that dropped the init() because nothing in the module calls it: add the SDK's plugin "
      + "to the target, plugins: [.plugin(name: \"TranslationProviderEntryPoint\", package: \"translation-host\")], "
      + "as new-provider's Package.swift does); "
      + "give the class an init() (default values for its stored properties and no initializer are enough), "
      + "or make it inherit TranslationUIProviderExtensionBase, whose required init() the SDK calls"
  }
}

/// A class's `init()`, found by its mangled name in the provider's symbol
/// table and called in Swift's convention (`CEntryPointCall`): the
/// allocating initializer of `init()` is `$s<type>A<s>ycfC`, where `<s>` is
/// the substitution that names the type again (`C` for `4Main3ExtC`, later
/// letters for other names); it takes the class's metadata as `self` and
/// returns a new instance, +1. An optimized build may keep no symbol for
/// the function itself, only its method descriptor (`…ycfCTq`, for the
/// vtable), whose second field points to it.
private enum ClassInitializer {
  static func makeInstance(of type: AnyClass) -> AnyObject? {
    guard let mangled = _mangledTypeName(type), mangled.hasSuffix("C") else { return nil }
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    // The class's descriptor (after kind, superclass, five 32-bit fields) is
    // in the provider's image even when its metadata was made at run time.
    guard let descriptor = metadata.load(fromByteOffset: 5 * MemoryLayout<Int>.size, as: UnsafeRawPointer?.self),
      let initializer = initializer(of: mangled, near: descriptor),
      let object = tp_call_allocating_initializer(initializer, metadata)
    else { return nil }
    return Unmanaged<AnyObject>.fromOpaque(object).takeRetainedValue()
  }

  private static func initializer(of mangled: String, near image: UnsafeRawPointer) -> UnsafeRawPointer? {
    let prefix = Array(("$s" + mangled + "A").utf8)
    if let function = LocalSymbols.address(of: .init(prefix: prefix, suffix: Array("?ycfC".utf8)), inImageContaining: image) {
      return function
    }
    // A method descriptor: flags (32 bits), then a relative pointer to the function.
    guard
      let method = LocalSymbols.address(of: .init(prefix: prefix, suffix: Array("?ycfCTq".utf8)), inImageContaining: image)
    else { return nil }
    let offset = method.load(fromByteOffset: 4, as: Int32.self)
    guard offset != 0 else { return nil }
    return method.advanced(by: 4 + Int(offset))
  }
}

/// The little of Swift's class metadata (Linux, no Objective-C interop) the
/// SDK reads to create an instance of a root class without stored
/// properties, which needs no initializer (a private one, or one in a
/// stripped shared object).
private enum ClassMetadata {
  /// The runtime's `swift_allocObject`, found at run time (the compiler
  /// reserves its name); its three word-sized arguments and result travel in
  /// the same registers under Swift's and C's conventions.
  private typealias AllocObject = @convention(c) (UnsafeRawPointer, Int, Int) -> UnsafeMutableRawPointer?

  /// The heap object header's size: metadata pointer and reference counts.
  private static let headerSize = 2 * MemoryLayout<Int>.size

  /// An instance of `type` when it is a root class with no stored properties
  /// (its instance is only the header, so there is nothing for an
  /// initializer to set); nil otherwise.
  static func makeEmptyInstance(of type: AnyClass) -> AnyObject? {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    // Layout: kind, superclass, flags (4), instance address point (4),
    // instance size (4), alignment mask (2).
    let superclass = metadata.load(fromByteOffset: MemoryLayout<Int>.size, as: UnsafeRawPointer?.self)
    let instanceSize = metadata.load(fromByteOffset: 2 * MemoryLayout<Int>.size + 8, as: UInt32.self)
    let alignMask = metadata.load(fromByteOffset: 2 * MemoryLayout<Int>.size + 12, as: UInt16.self)
    guard superclass == nil, Int(instanceSize) == headerSize else { return nil }
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_allocObject"),
      let object = unsafeBitCast(symbol, to: AllocObject.self)(metadata, headerSize, Int(alignMask))
    else { return nil }
    return Unmanaged<AnyObject>.fromOpaque(object).takeRetainedValue()
  }
}
