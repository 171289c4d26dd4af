/// Something wrong with a provider bundle's files; each case names the file
/// and key, and its description says what to do.
package enum ManifestError: Error, Equatable, CustomStringConvertible {
  /// A file the bundle must have is absent.
  case missingFile(String)
  /// A file exists but cannot be read or parsed.
  case unreadable(String, reason: String)
  /// A required key is absent.
  case missingKey(file: String, key: String)
  /// A key holds the wrong property-list type.
  case wrongType(file: String, key: String, expected: String, found: String)
  /// A key holds a value of the right type that is not acceptable.
  case invalidValue(file: String, key: String, value: String, reason: String)
  /// The bundle has no entitlements file, or more than one.
  case entitlementsCount(bundle: String, found: [String])
  /// The bundle does not declare the translation-app entitlement as true.
  case notTranslationApp(file: String)

  package var description: String {
    switch self {
    case .missingFile(let path):
      "\(path): file is missing; a provider bundle needs it (see Documentation/Bundles.md)"
    case .unreadable(let path, let reason):
      "\(path): cannot be read: \(reason)"
    case .missingKey(let file, let key):
      "\(file): required key '\(key)' is missing; add it"
    case .wrongType(let file, let key, let expected, let found):
      "\(file): key '\(key)' is of type \(found) but must be of type \(expected); change its type"
    case .invalidValue(let file, let key, let value, let reason):
      "\(file): key '\(key)' has the value '\(value)', which \(reason)"
    case .entitlementsCount(let bundle, let found) where found.isEmpty:
      "\(bundle): has no *.entitlements file; add one declaring '\(ManifestKey.translationApp)' = true"
    case .entitlementsCount(let bundle, let found):
      "\(bundle): has \(found.count) entitlements files (\(found.joined(separator: ", "))); keep exactly one"
    case .notTranslationApp(let file):
      "\(file): entitlement '\(ManifestKey.translationApp)' is not true, so this provider may not run; set it to <true/>"
    }
  }
}
