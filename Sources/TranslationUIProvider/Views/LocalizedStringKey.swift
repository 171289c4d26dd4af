import Foundation

/// The key of a localized string, as SwiftUI's `LocalizedStringKey`: what
/// `Text("Hello")`, `Button("Translate") { … }` and `Label("Copy",
/// systemImage:)` take when given a literal. The view shows the string for
/// the key in the provider's own bundle (`Bundle.provider`'s `.lproj`
/// folders) in the user's language, else the literal as written; a literal
/// that interpolates values has a specifier in its key for each
/// (`"\(count) words"`: `"%lld words"`). A `String` variable is shown as
/// it is (`Text(verbatim:)` too), as in SwiftUI.
public struct LocalizedStringKey: Equatable, Sendable, ExpressibleByStringInterpolation {
  public typealias StringInterpolation = String.LocalizationValue.StringInterpolation

  let value: String.LocalizationValue

  /// The key `value`, looked up as it is.
  public init(_ value: String) { self.value = String.LocalizationValue(value) }

  public init(stringLiteral value: String) { self.init(value) }

  public init(stringInterpolation: StringInterpolation) {
    value = String.LocalizationValue(stringInterpolation: stringInterpolation)
  }

  /// The string to show: the key's in table `tableName` of `bundle` (nil:
  /// the provider's), in the user's language, with its values filled in.
  func resolved(tableName: String?, bundle: Bundle?) -> String {
    String(localized: value, table: tableName, bundle: bundle)
  }
}
