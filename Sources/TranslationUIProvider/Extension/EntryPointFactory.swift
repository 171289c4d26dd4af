import Glibc

/// Creates a provider's entry point from its type alone, since
/// `TranslationUIProviderExtension` cannot require `init()` (see there).
enum EntryPointFactory {
  /// Why an entry point could not be created; the message says what to change.
  struct Refusal: Error, CustomStringConvertible {
    var description: String
  }

  static func make<Extension: TranslationUIProviderExtension>(_ type: Extension.Type) throws(Refusal) -> Extension {
    // A subclass of the base class: its required initializer, dynamically dispatched.
    if let base = type as? TranslationUIProviderExtensionBase.Type, let made = base.init() as? Extension {
      return made
    }
    if let classType = type as? AnyClass {
      guard let made = ClassMetadata.makeEmptyInstance(of: classType) as? Extension else {
        throw Refusal(description: storedPropertiesMessage(type))
      }
      return made
    }
    // A struct or enum without stored properties has no bytes to initialize.
    guard MemoryLayout<Extension>.size == 0 else { throw Refusal(description: storedPropertiesMessage(type)) }
    return unsafeBitCast((), to: Extension.self)
  }

  private static func storedPropertiesMessage(_ type: Any.Type) -> String {
    "the entry point '\(type)' has stored properties, so the SDK cannot create it without an initializer it can call: "
      + "make it a class that inherits TranslationUIProviderExtensionBase (whose required init() the SDK calls), "
      + "or keep its state in static properties or in its scene's views and models"
  }
}

/// The little of Swift's class metadata (Linux, no Objective-C interop) the
/// SDK reads to create an instance of a class without stored properties.
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
