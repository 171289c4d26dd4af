/// Bounds on what a manifest or entitlements file may hold, enforced by the
/// readers as they read (`PropertyListBuilder`), so that no file can make
/// reading it take more than linear time, more memory than a small multiple of
/// its size, or more stack than a fixed amount.
package enum PropertyListLimits {
  /// The largest manifest or entitlements file read.
  package static let maximumBytes = 1 << 20
  /// The deepest nesting of arrays and dictionaries accepted.
  package static let maximumDepth = 32
  /// The most values a property list may hold, counting a binary list's
  /// shared objects once per reference (a small file could otherwise expand
  /// exponentially).
  package static let maximumObjects = 100_000

  /// Why a property list is refused.
  package enum Violation: Error, Equatable {
    /// The file has this many bytes, more than `maximumBytes`.
    case tooLarge(Int)
    /// Containers nest deeper than `maximumDepth` (a cyclic binary list too).
    case tooDeep
    /// More than `maximumObjects` values.
    case tooManyObjects
    /// One dictionary holds this key (a path such as `TPSettings[0].Key`) twice.
    case duplicateKey(String)
    /// Not a property list; the reason names the line or object.
    case malformed(String)
  }

  /// The 1-based line of byte `index` in a text property list, for diagnostics.
  static func line(of index: Int, in bytes: [UInt8]) -> Int {
    1 + bytes[..<Swift.min(index, bytes.count)].lazy.filter { $0 == 0x0A }.count
  }
}
