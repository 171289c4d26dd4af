import Foundation

/// A localizable string to look up later, as Foundation's
/// `LocalizedStringResource`: its key and default value, table, bundle and
/// locale. `String(localized:)` and `Text(_:)` look it up in the provider's
/// own bundle unless it names another.
public struct LocalizedStringResource: Sendable, ExpressibleByStringInterpolation {
  /// Where the strings are, as Foundation's `BundleDescription`.
  public enum BundleDescription: Sendable {
    /// The provider's own bundle (the extension's `Bundle.main` on iOS).
    case main
    /// The bundle folder at a file URL.
    case atURL(URL)
  }

  /// The key to look up.
  public let key: String
  /// What is shown when no localization has the key.
  public let defaultValue: String.LocalizationValue
  /// The strings table; nil for `Localizable`.
  public let table: String?
  /// The locale the values are formatted for.
  public var locale: Locale
  let bundleDescription: BundleDescription

  /// A resource whose key is `keyAndValue`'s (its literal, with a specifier
  /// for each interpolated value).
  public init(
    _ keyAndValue: String.LocalizationValue, table: String? = nil, locale: Locale = .current,
    bundle: BundleDescription = .main, comment: StaticString? = nil
  ) {
    key = keyAndValue.key
    defaultValue = keyAndValue
    self.table = table
    self.locale = locale
    bundleDescription = bundle
  }

  /// A resource with its key and a separate default value.
  public init(
    _ key: StaticString, defaultValue: String.LocalizationValue, table: String? = nil, locale: Locale = .current,
    bundle: BundleDescription = .main, comment: StaticString? = nil
  ) {
    self.key = key.description
    self.defaultValue = defaultValue
    self.table = table
    self.locale = locale
    bundleDescription = bundle
  }

  public init(stringLiteral value: String) { self.init(String.LocalizationValue(value)) }

  public init(stringInterpolation: String.LocalizationValue.StringInterpolation) {
    self.init(String.LocalizationValue(stringInterpolation: stringInterpolation))
  }

  /// The bundle it names.
  var bundle: Bundle {
    switch bundleDescription {
    case .main: .provider
    case .atURL(let url): Bundle(url: url) ?? .provider
    }
  }
}
