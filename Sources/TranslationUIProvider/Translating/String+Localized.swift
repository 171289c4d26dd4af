import Foundation

extension String {
  /// Foundation's `String(localized:)` as iOS code calls it: the string for
  /// `keyAndValue` in table `table` (default `Localizable`) of `bundle`
  /// (default: the provider's own bundle, `Bundle.provider`, as the
  /// extension's bundle is `Bundle.main` on iOS), in the user's language
  /// (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`), with its interpolated
  /// values filled in, formatted for `locale`. A key no localization has is
  /// shown as written.
  ///
  /// ```swift
  /// Text(String(localized: "Translated by \(host)"))  // key "Translated by %@"
  /// ```
  public init(
    localized keyAndValue: String.LocalizationValue, table: String? = nil, bundle: Bundle? = nil,
    locale: Locale = .current, comment: StaticString? = nil
  ) {
    self = Self.localized(
      key: keyAndValue.key, default: keyAndValue, table: table, bundle: bundle ?? .provider, locale: locale,
      languages: UserLanguages.preferred)
  }

  /// `String(localized:defaultValue:table:bundle:locale:comment:)`: the
  /// string for `key`, else `defaultValue`; its values fill the specifiers.
  public init(
    localized key: StaticString, defaultValue: String.LocalizationValue, table: String? = nil, bundle: Bundle? = nil,
    locale: Locale = .current, comment: StaticString? = nil
  ) {
    self = Self.localized(
      key: key.description, default: defaultValue, table: table, bundle: bundle ?? .provider, locale: locale,
      languages: UserLanguages.preferred)
  }

  /// The string a `LocalizedStringResource` names, in the user's language.
  public init(localized resource: LocalizedStringResource) {
    self = Self.localized(
      key: resource.key, default: resource.defaultValue, table: resource.table, bundle: resource.bundle,
      locale: resource.locale, languages: UserLanguages.preferred)
  }

  /// The lookup behind all three, in `languages` (best first).
  static func localized(
    key: String, default value: String.LocalizationValue, table: String?, bundle: Bundle, locale: Locale,
    languages: [String]
  ) -> String {
    let missing = "\u{0}missing"
    let found = bundle.localizedString(forKey: key, value: missing, table: table, languages: languages)
    guard found != missing else {
      return LocalizedFormat.fill(value.key, with: value.arguments, locale: locale) ?? value.key
    }
    return LocalizedFormat.fill(found, with: value.arguments, locale: locale)
      ?? LocalizedFormat.fill(value.key, with: value.arguments, locale: locale) ?? value.key
  }
}
